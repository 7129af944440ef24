import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SafeStorageSecretStore, type SafeStorageLike } from './secret-store';

/** A stand-in for Electron's safeStorage: "encrypts" by reversing and tagging the bytes. */
function fakeSafeStorage(o: { available?: boolean; backend?: string; reEncrypt?: boolean } = {}) {
  const calls = { encrypt: 0 };
  const safe = {
    isAsyncEncryptionAvailable: async () => o.available ?? true,
    getSelectedStorageBackend: () => o.backend ?? 'gnome_libsecret',
    encryptStringAsync: async (plain: string) => {
      calls.encrypt++;
      return Buffer.concat([Buffer.from('ENC:'), Buffer.from(plain, 'utf8').reverse()]);
    },
    decryptStringAsync: async (enc: Buffer) => {
      if (!enc.subarray(0, 4).equals(Buffer.from('ENC:'))) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return { result: Buffer.from(enc.subarray(4)).reverse().toString('utf8'), shouldReEncrypt: o.reEncrypt ?? false };
    },
  } as unknown as SafeStorageLike;
  return { safe, calls };
}

describe('safeStorage secret store (fake Electron objects)', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-secrets-'));
    file = path.join(dir, 'config', 'secrets.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores the key encrypted and base64, readable by the user only, and reads it back', async () => {
    const { safe } = fakeSafeStorage();
    const store = new SafeStorageSecretStore(file, safe, 'linux');
    expect(await store.get('llm.api_key')).toBeNull();
    await store.set('llm.api_key', 'sk-test-123');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('sk-test-123');
    const stored = (JSON.parse(text) as { secrets: Record<string, string> }).secrets['llm.api_key']!;
    expect(Buffer.from(stored, 'base64').subarray(0, 4).toString()).toBe('ENC:');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await new SafeStorageSecretStore(file, safe, 'linux').get('llm.api_key')).toBe('sk-test-123');
  });

  it('deletes a key with null', async () => {
    const { safe } = fakeSafeStorage();
    const store = new SafeStorageSecretStore(file, safe, 'darwin');
    await store.set('llm.api_key', 'sk-1');
    await store.set('other', 'x');
    await store.set('llm.api_key', null);
    expect(await store.get('llm.api_key')).toBeNull();
    expect(await store.get('other')).toBe('x');
  });

  it('refuses to store a key when encryption is unavailable, and writes nothing', async () => {
    const { safe } = fakeSafeStorage({ available: false });
    const store = new SafeStorageSecretStore(file, safe, 'win32');
    await expect(store.set('llm.api_key', 'sk-plain')).rejects.toThrow(/no encrypted storage.*DESKPILOT_LLM_API_KEY/s);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("refuses Linux's basic_text backend (a hard-coded password is plain text)", async () => {
    const { safe, calls } = fakeSafeStorage({ backend: 'basic_text' });
    const store = new SafeStorageSecretStore(file, safe, 'linux');
    await expect(store.set('llm.api_key', 'sk-plain')).rejects.toThrow(/no keyring/);
    expect(calls.encrypt).toBe(0);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('can still delete a key when encryption is unavailable', async () => {
    await new SafeStorageSecretStore(file, fakeSafeStorage().safe, 'linux').set('llm.api_key', 'sk-1');
    const store = new SafeStorageSecretStore(file, fakeSafeStorage({ available: false }).safe, 'linux');
    await store.set('llm.api_key', null);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, secrets: {} });
  });

  it('treats an undecryptable or broken file as no key, and says so in the log', async () => {
    const log = vi.fn();
    await writeFile(path.join(dir, 'bad.json'), JSON.stringify({ version: 1, secrets: { 'llm.api_key': Buffer.from('garbage').toString('base64') } }));
    expect(await new SafeStorageSecretStore(path.join(dir, 'bad.json'), fakeSafeStorage().safe, 'linux', log).get('llm.api_key')).toBeNull();
    expect(log.mock.calls[0]![0]).toMatch(/cannot be decrypted/);
    await writeFile(path.join(dir, 'broken.json'), '{not json');
    expect(await new SafeStorageSecretStore(path.join(dir, 'broken.json'), fakeSafeStorage().safe, 'linux', log).get('llm.api_key')).toBeNull();
    expect(log.mock.calls[1]![0]).toMatch(/broken\.json/);
  });

  it('re-encrypts when safeStorage asks to (key rotation)', async () => {
    await new SafeStorageSecretStore(file, fakeSafeStorage().safe, 'darwin').set('llm.api_key', 'sk-rot');
    const { safe, calls } = fakeSafeStorage({ reEncrypt: true });
    expect(await new SafeStorageSecretStore(file, safe, 'darwin').get('llm.api_key')).toBe('sk-rot');
    expect(calls.encrypt).toBe(1);
  });
});
