import * as Y from 'yjs';
import { TrustNotice, type DeviceIdentity, type KeyWrap } from '../../protocol/sync-trust';
import { fingerprintOf, signWith, unwrapWith, verifyWith, wrapTo, type DeviceKeys } from './device-keys';
import { b64, canonical, newSymmetricKey } from './seal';
import type { Keyring } from './sealed-rows';
import type { TrustFile, TrustStore } from './trust-store';

// Signed notices in the shared document, by which desks tell each other of devices added (after
// pairing one) and removed (with a new document key for the devices that stay). A desk applies a
// notice only when a device in its own trust list signed it; a removed key is never trusted
// again, whatever a notice says; a removal's new key is taken only when it is newer than the
// current one. Applying is idempotent: every desk reads every notice each time it looks.

const noticeSigned = (n: Omit<TrustNotice, 'sig'>) =>
  canonical('deskpilot notice v1', [
    n.v,
    n.id,
    n.kind,
    n.by,
    n.at,
    [n.device.id, n.device.name, n.device.sign_pub, n.device.box_pub],
    n.rekey ? [n.rekey.epoch, Object.entries(n.rekey.wraps).sort(([a], [b]) => a.localeCompare(b)).map(([to, w]) => [to, w.eph, w.nonce, w.ct])] : null,
  ]);

const wrapAd = (noticeId: string, to: string, epoch: number) => canonical('deskpilot document key v1', [noticeId, to, epoch]);

export const noticesOf = (doc: Y.Doc) => doc.getMap<unknown>('notices');

const newId = () => globalThis.crypto.randomUUID();

export function identityOf(t: TrustFile, id: string): DeviceIdentity {
  const d = t.devices[id]!;
  return { id, name: d.name, sign_pub: d.sign_pub, box_pub: d.box_pub };
}

/** A notice that this desk added `device`, for the other desks (which trust this one) to add it too. */
export function addNotice(keys: DeviceKeys, by: string, device: DeviceIdentity, at = Date.now()): TrustNotice {
  const n = { v: 1 as const, id: newId(), kind: 'add' as const, by, at, device };
  return { ...n, sig: signWith(keys, noticeSigned(n)) };
}

/**
 * A removal of `device`: the new document key (epoch current + 1) wrapped to every device this
 * desk trusts but the removed one, and the trust list as it is after it (to store).
 */
export function removalNotice(keys: DeviceKeys, t: TrustFile, device: DeviceIdentity, at = Date.now()): { notice: TrustNotice; trust: TrustFile } {
  const id = newId();
  if (device.id === t.self) {
    // A device removing itself gives no new key: it would know it.
    const n = { v: 1 as const, id, kind: 'remove' as const, by: t.self, at, device };
    return { notice: { ...n, sig: signWith(keys, noticeSigned(n)) }, trust: t };
  }
  const epoch = Math.max(...t.keys.map((k) => k.epoch)) + 1;
  const key = newSymmetricKey();
  const wraps: Record<string, KeyWrap> = {};
  for (const [to, d] of Object.entries(t.devices)) if (to !== device.id) wraps[to] = wrapTo(d.box_pub, key, wrapAd(id, to, epoch));
  const n = { v: 1 as const, id, kind: 'remove' as const, by: t.self, at, device, rekey: { epoch, wraps } };
  const notice = { ...n, sig: signWith(keys, noticeSigned(n)) };
  const removed = withRemoval(t, device, t.self, at);
  return { notice, trust: { ...removed, keys: [...retired(removed, at), { epoch, key: b64(key), retired_at: null }], current_epoch: epoch } };
}

const retired = (t: TrustFile, at: number) => t.keys.map((k) => (k.retired_at === null ? { ...k, retired_at: at } : k));

function withRemoval(t: TrustFile, device: DeviceIdentity, by: string, at: number): TrustFile {
  const devices = { ...t.devices };
  if (devices[device.id]?.sign_pub === device.sign_pub) delete devices[device.id];
  const known = t.removed.some((r) => r.sign_pub === device.sign_pub);
  return { ...t, devices, removed: known ? t.removed : [...t.removed, { id: device.id, sign_pub: device.sign_pub, removed_at: at, removed_by: by }] };
}

export interface Applied {
  /** A trusted device removed this one. */
  removedSelf: boolean;
  /** What changed, for the log. */
  lines: string[];
}

/**
 * Applies the notices in the document that this desk has not applied yet. The new trust list
 * takes effect in this process at once (before anything else reads a row: a row from a device
 * removed in the same update is already refused), and is written to the file after.
 */
export function applyNotices(doc: Y.Doc, ring: Keyring, store: TrustStore, now = Date.now()): Applied & { written: Promise<void> } {
  const notices: TrustNotice[] = [];
  for (const value of noticesOf(doc).values()) {
    const n = TrustNotice.safeParse(value);
    if (n.success) notices.push(n.data);
  }
  notices.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  const step = (t: TrustFile, out: Applied): TrustFile => {
    for (const n of notices) t = applyOne(t, n, ring, now, out);
    return t;
  };
  const out: Applied = { removedSelf: false, lines: [] };
  const before = store.get();
  const after = step(before, out);
  if (JSON.stringify(after) === JSON.stringify(before)) return { ...out, written: Promise.resolve() };
  store.stage(after);
  return { ...out, written: store.update((t) => step(t, { removedSelf: false, lines: [] })).then(() => undefined) };
}

function applyOne(t: TrustFile, n: TrustNotice, ring: Keyring, now: number, out: Applied): TrustFile {
  const signer = t.devices[n.by];
  if (!signer || t.removed.some((r) => r.sign_pub === signer.sign_pub)) return t;
  if (!verifyWith(signer.sign_pub, noticeSigned(n), n.sig)) return t;
  const d = n.device;
  if (n.kind === 'add') {
    if (t.removed.some((r) => r.sign_pub === d.sign_pub) || d.id === t.self) return t;
    const known = t.devices[d.id];
    if (known) {
      if (known.sign_pub !== d.sign_pub) out.lines.push(`"${signer.name}" says device ${d.id} has a new key; not taken (pair it here to trust the new key)`);
      return t;
    }
    out.lines.push(`trusting "${d.name}" (key ${fingerprintOf(d.sign_pub)}), paired by "${signer.name}"; it may act here only after a yes here (\`deskpilot devices allow\` to change that)`);
    return {
      ...t,
      devices: { ...t.devices, [d.id]: { name: d.name, sign_pub: d.sign_pub, box_pub: d.box_pub, fingerprint: fingerprintOf(d.sign_pub), act_without_asking: false, added_at: now, added_by: n.by } },
    };
  }
  if (d.id === t.self && t.devices[t.self]?.sign_pub === d.sign_pub) {
    out.removedSelf = true;
    return t;
  }
  let next = t;
  if (!t.removed.some((r) => r.sign_pub === d.sign_pub)) {
    out.lines.push(`"${signer.name}" removed "${d.name}": no longer trusted here`);
    next = withRemoval(t, d, n.by, n.at);
  }
  const rekey = n.rekey;
  if (rekey && rekey.epoch > Math.max(...next.keys.map((k) => k.epoch))) {
    const wrap = rekey.wraps[t.self];
    const key = wrap ? unwrapWith(ring.keys, wrap, wrapAd(n.id, t.self, rekey.epoch)) : null;
    if (!key || key.length !== 32) {
      out.lines.push(`"${signer.name}" changed the document key (epoch ${rekey.epoch}) without giving it to this device: pair it again`);
      return next;
    }
    out.lines.push(`document key changed to epoch ${rekey.epoch}`);
    next = { ...next, keys: [...retired(next, now), { epoch: rekey.epoch, key: b64(key), retired_at: null }], current_epoch: rekey.epoch };
  }
  return next;
}
