import type { SafeStorage } from 'electron';
import { chmod, readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SecretStore } from '../platform/config/settings-store';
import { serialized } from '../platform/storage/json-file';

// Secrets (the LLM API key) encrypted with Electron's safeStorage — the OS keychain, DPAPI,
// or the Linux secret service — stored base64 in secrets.json in the config dir, readable by
// the user only. Where no real encryption exists (safeStorage unavailable, or Linux's
// hard-coded-password "basic_text" fallback) a key is refused, never written in plain text.
// Uses the asynchronous safeStorage API: the synchronous one is deprecated in Electron 45.

export type SafeStorageLike = Pick<SafeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>;

interface SecretsFile {
  version: 1;
  /** key → base64 of safeStorage's ciphertext */
  secrets: Record<string, string>;
}

export class SecretStorageUnavailableError extends Error {
  override name = 'SecretStorageUnavailableError';
}

export class SafeStorageSecretStore implements SecretStore {
  constructor(
    readonly file: string,
    private readonly safe: SafeStorageLike,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly log: (message: string) => void = (m) => console.warn(m),
  ) {}

  /** null when absent or unreadable (a changed keychain must not stop the app from starting). */
  async get(key: string): Promise<string | null> {
    let stored: string | undefined;
    try {
      stored = (await this.read()).secrets[key];
    } catch (e) {
      this.log(`${this.file}: ${messageOf(e)}; ignoring stored secrets`);
      return null;
    }
    if (stored === undefined) return null;
    try {
      const { result, shouldReEncrypt } = await this.safe.decryptStringAsync(Buffer.from(stored, 'base64'));
      if (shouldReEncrypt) await this.set(key, result).catch((e: unknown) => this.log(`could not re-encrypt ${key}: ${messageOf(e)}`));
      return result;
    } catch (e) {
      this.log(`${this.file}: ${key} cannot be decrypted (${messageOf(e)}); enter it again in Settings`);
      return null;
    }
  }

  async set(key: string, value: string | null): Promise<void> {
    const encrypted = value === null ? null : (await this.encrypt(value)).toString('base64');
    await serialized(this.file, async () => {
      let current: SecretsFile;
      try {
        current = await this.read();
      } catch (e) {
        // An unreadable file holds nothing we can use; start again rather than refuse forever.
        this.log(`${this.file}: ${messageOf(e)}; replacing it`);
        current = { version: 1, secrets: {} };
      }
      const secrets = { ...current.secrets };
      if (encrypted === null) delete secrets[key];
      else secrets[key] = encrypted;
      await this.write({ version: 1, secrets });
    });
  }

  private async encrypt(value: string): Promise<Buffer> {
    if (!(await this.safe.isAsyncEncryptionAvailable())) {
      throw new SecretStorageUnavailableError(
        'Cannot store the API key: this system offers no encrypted storage for it (Electron safeStorage is unavailable). ' +
          'Set DESKPILOT_LLM_API_KEY in the environment instead.',
      );
    }
    if (this.platform === 'linux' && this.safe.getSelectedStorageBackend() === 'basic_text') {
      throw new SecretStorageUnavailableError(
        'Cannot store the API key: no keyring (GNOME Keyring / KWallet secret service) is running, so it could only be saved ' +
          'with a built-in password, which is as good as plain text. Start a keyring, or set DESKPILOT_LLM_API_KEY in the environment instead.',
      );
    }
    return this.safe.encryptStringAsync(value);
  }

  private async read(): Promise<SecretsFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, secrets: {} };
      throw new Error(`cannot be read (${messageOf(e)})`);
    }
    const json = JSON.parse(text) as unknown;
    const secrets = (json as Partial<SecretsFile> | null)?.secrets;
    if (!secrets || typeof secrets !== 'object' || Object.values(secrets).some((v) => typeof v !== 'string')) {
      throw new Error('is not a DeskPilot secrets file');
    }
    return { version: 1, secrets };
  }

  /** Written to a temp file created 0600, then renamed: never half a file, never world-readable. */
  private async write(content: SecretsFile): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(content, null, 2) + '\n', { encoding: 'utf8', mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, this.file);
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
