import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SecretStore } from '../config/settings-store';
import { credentialFile, type SyncCredential } from './credential-file';
import { newDeviceKeys, storedKeys } from './device-keys';
import { keychainCredentials, SYNC_CREDENTIAL_KEY, SYNC_DEVICE_KEYS_KEY } from './keychain-credential';

/** A keychain stand-in (fake): a map. The file side is a real 0600 file. */
function fakeKeychain(): SecretStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: async (k) => map.get(k) ?? null, set: async (k, v) => void (v === null ? map.delete(k) : map.set(k, v)) };
}

const cred = (device: string): SyncCredential => ({ v: 1, user_id: 'u'.repeat(32), device_id: `device-${device}`, device_key: 'k'.repeat(32), paired_at: '2026-01-01T00:00:00.000Z' });

describe('the app\'s sync credential in the keychain (fake keychain, real file)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-keycred-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('uses the CLI\'s file until the app pairs; then the keychain, writing no file', async () => {
    const keychain = fakeKeychain();
    const file = credentialFile(dir);
    const store = keychainCredentials(keychain, file);
    expect(await store.read()).toBeNull();
    await file.write(cred('fromcli1'));
    expect((await store.read())?.device_id).toBe('device-fromcli1');
    await store.write(cred('fromapp1'));
    expect((await store.read())?.device_id).toBe('device-fromapp1');
    expect(JSON.parse(keychain.map.get(SYNC_CREDENTIAL_KEY)!).device_id).toBe('device-fromapp1');
    // The CLI's file is left for the CLI.
    expect((await file.read())?.device_id).toBe('device-fromcli1');
    await store.remove();
    expect(keychain.map.size).toBe(0);
    await expect(stat(path.join(dir, 'sync-credential.json'))).rejects.toThrow();
    expect(await store.read()).toBeNull();
  });

  it('a damaged keychain entry is a clear error, never a silent fallback to another credential', async () => {
    const keychain = fakeKeychain();
    keychain.map.set(SYNC_CREDENTIAL_KEY, '{"v":1,"user_id":"short"}');
    const file = credentialFile(dir);
    await file.write(cred('fromcli1'));
    await expect(keychainCredentials(keychain, file).read()).rejects.toThrow(/keychain is damaged .*user_id.*pair this device again/);
  });

  it('the device keys: the CLI\'s file until the app writes its own into the keychain; a damaged entry is an error', async () => {
    const keychain = fakeKeychain();
    const file = credentialFile(dir);
    const keys = keychainCredentials(keychain, file).deviceKeys!;
    expect(await keys.read()).toBeNull();
    const fromCli = storedKeys('device-fromcli1', newDeviceKeys());
    await file.deviceKeys!.write(fromCli);
    expect(await keys.read()).toEqual(fromCli);
    const fromApp = storedKeys('device-fromapp1', newDeviceKeys());
    await keys.write(fromApp);
    expect(await keys.read()).toEqual(fromApp);
    expect(await file.deviceKeys!.read()).toEqual(fromCli);
    keychain.map.set(SYNC_DEVICE_KEYS_KEY, '{"v":1}');
    await expect(keys.read()).rejects.toThrow(/this device's keys in the keychain is damaged .*device_id/);
  });
});
