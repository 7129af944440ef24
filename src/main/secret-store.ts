import type { SafeStorage } from 'electron';
import type { SecretStore } from '../platform/config/settings-store';
import { withFileLock } from '../platform/storage/file-lock';
import { writeJsonFile } from '../platform/storage/json-file';
import { readStateText } from '../platform/storage/state-file';
import { errorMessage } from '../engine/errors';

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
      this.log(`${errorMessage(e)}; ignoring stored secrets`);
      return null;
    }
    if (stored === undefined) return null;
    try {
      const { result, shouldReEncrypt } = await this.safe.decryptStringAsync(Buffer.from(stored, 'base64'));
      if (shouldReEncrypt) await this.set(key, result).catch((e: unknown) => this.log(`could not re-encrypt ${key}: ${errorMessage(e)}`));
      return result;
    } catch (e) {
      this.log(`${this.file}: ${key} cannot be decrypted (${errorMessage(e)}); enter it again in Settings`);
      return null;
    }
  }

  async set(key: string, value: string | null): Promise<void> {
    const encrypted = value === null ? null : (await this.encrypt(value)).toString('base64');
    await withFileLock(this.file, async () => {
      let current: SecretsFile;
      try {
        current = await this.read();
      } catch (e) {
        // It may hold keys that a fixed file or keychain would give back: never replace it.
        throw new Error(`${errorMessage(e)}; it is left as it is — move it away to store a new key`, { cause: e });
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

  /** Errors name the file. */
  private async read(): Promise<SecretsFile> {
    const text = await readStateText(this.file);
    if (text === null) return { version: 1, secrets: {} };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new Error(`${this.file}: is not valid JSON (${errorMessage(e)})`, { cause: e });
    }
    const secrets = (json as Partial<SecretsFile> | null)?.secrets;
    if (!secrets || typeof secrets !== 'object' || Object.values(secrets).some((v) => typeof v !== 'string')) {
      throw new Error(`${this.file}: is not a DeskPilot secrets file`);
    }
    return { version: 1, secrets };
  }

  /** Written to a temp file created 0600, then renamed: never half a file, never world-readable. */
  private async write(content: SecretsFile): Promise<void> {
    await writeJsonFile(this.file, content, 0o600);
  }
}
