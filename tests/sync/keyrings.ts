import { fingerprintOf, newDeviceKeys, type DeviceKeys } from '../../src/platform/sync/device-keys';
import { b64, newSymmetricKey } from '../../src/platform/sync/seal';
import type { Keyring } from '../../src/platform/sync/sealed-rows';
import type { TrustFile, TrustStore } from '../../src/platform/sync/trust-store';

// Devices of one user for tests that need no files: real keys, each with its own trust list in
// memory (all trusting each other, none allowed to act without asking), sharing document key epoch 1.

export interface TestDevice {
  id: string;
  name: string;
  keys: DeviceKeys;
  ring: Keyring;
  store: TrustStore & { set(t: TrustFile): void };
}

export function memoryTrust(initial: TrustFile): TrustStore & { set(t: TrustFile): void } {
  let t = structuredClone(initial);
  return {
    where: '(memory)',
    read: () => t,
    get: () => t,
    update: async (fn) => (t = fn(t)),
    create: async (n) => void (t = n),
    stage: (n) => void (t = n),
    set: (n) => void (t = n),
  };
}

export function testUser(names: string[], ids: string[] = [], userId = 'user-'.padEnd(43, 'x')): TestDevice[] {
  const key = b64(newSymmetricKey());
  const made = names.map((name, i) => ({ id: ids[i] ?? `device-${String(i + 1).padStart(4, '0')}`, name, keys: newDeviceKeys() }));
  return made.map((d) => {
    const devices: TrustFile['devices'] = {};
    for (const o of made) {
      devices[o.id] = { name: o.name, sign_pub: o.keys.signPub, box_pub: o.keys.boxPub, fingerprint: fingerprintOf(o.keys.signPub), act_without_asking: false, added_at: 1, added_by: d.id };
    }
    const store = memoryTrust({ v: 1, user_id: userId, self: d.id, devices, removed: [], keys: [{ epoch: 1, key, retired_at: null }], current_epoch: 1 });
    return { ...d, store, ring: { self: d.id, keys: d.keys, trust: () => store.get() } };
  });
}
