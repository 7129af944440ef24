import type { z } from 'zod';
import type { SecretStore } from '../config/settings-store';
import { parseJsonOf } from '../../protocol/json-syntax';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { StateFileError } from '../storage/state-file';
import { SyncCredential, type CredentialStore } from './credential-file';
import { StoredDeviceKeys, type DeviceKeyStore } from './device-keys';

// The app's sync credential and device keys, in the OS keychain (the app's SecretStore: Electron
// safeStorage) rather than files. A device paired from the command line has them in the 0600
// files: the app uses those until it pairs itself, and the files stay, since the CLI cannot read
// the keychain.

export const SYNC_CREDENTIAL_KEY = 'sync.credential';
export const SYNC_DEVICE_KEYS_KEY = 'sync.device_keys';

interface Stored<T> {
  readonly where: string;
  read(): Promise<T | null>;
  write(v: T): Promise<void>;
  remove(): Promise<void>;
}

/** One JSON value in the keychain, falling back to its file; a damaged entry is an error, never a silent fallback. */
function keychainBacked<T>(secrets: SecretStore, key: string, schema: z.ZodType<T>, file: Stored<T>, what: string): Stored<T> {
  return {
    where: `the system keychain (or ${file.where})`,
    read: async () => {
      const stored = await secrets.get(key);
      if (stored === null) return file.read();
      const json = parseJsonOf(key, stored);
      if (!json.ok) throw new StateFileError(`${what} in the keychain is damaged (${json.error}): pair this device again`);
      const parsed = schema.safeParse(json.value);
      if (!parsed.success) throw new StateFileError(`${what} in the keychain is damaged (${zodErrors(parsed.error, json.value).map(formatFieldError).join('; ')}): pair this device again`);
      return parsed.data;
    },
    write: (v) => secrets.set(key, JSON.stringify(schema.parse(v))),
    remove: async () => {
      await secrets.set(key, null);
      await file.remove();
    },
  };
}

export function keychainDeviceKeys(secrets: SecretStore, file: DeviceKeyStore): DeviceKeyStore {
  return keychainBacked(secrets, SYNC_DEVICE_KEYS_KEY, StoredDeviceKeys, file, "this device's keys");
}

/** The credential in the keychain, with the device keys beside it (the file's, behind the keychain). */
export function keychainCredentials(secrets: SecretStore, file: CredentialStore): CredentialStore {
  return {
    ...keychainBacked(secrets, SYNC_CREDENTIAL_KEY, SyncCredential, file, 'the sync credential'),
    ...(file.deviceKeys ? { deviceKeys: keychainDeviceKeys(secrets, file.deviceKeys) } : {}),
  };
}
