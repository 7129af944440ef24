import { rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeStateText } from '../storage/state-file';
import { deviceKeyFile, type DeviceKeyStore } from './device-keys';
import { readPrivateJson } from './private-json';

// This device's sync credential: which user's document it belongs to and its own device key.
// The CLI and the service keep it in a 0600 file in the config directory; the app can keep it
// in the OS keychain instead (src/main/secret-store.ts, Electron's safeStorage) by giving the
// sync wiring another CredentialStore. A file others could read is refused, not trusted.

export const CREDENTIAL_FILE = 'sync-credential.json';

export const SyncCredential = z.strictObject({
  v: z.literal(1),
  user_id: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/),
  device_id: z.string().regex(/^[\w-]{8,64}$/),
  device_key: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/),
  paired_at: z.string(),
});
export type SyncCredential = z.infer<typeof SyncCredential>;

export interface CredentialStore {
  /** Where it is kept, for messages. */
  readonly where: string;
  /** Where this device's private keys are kept, when not in the config directory's file (the app: the keychain). */
  readonly deviceKeys?: DeviceKeyStore;
  read(): Promise<SyncCredential | null>;
  write(c: SyncCredential): Promise<void>;
  remove(): Promise<void>;
}

export function credentialFile(configDir: string): CredentialStore {
  const file = path.join(configDir, CREDENTIAL_FILE);
  return {
    where: file,
    deviceKeys: deviceKeyFile(configDir),
    read: () => readCredential(file),
    write: (c) => writeStateText(file, JSON.stringify(c, null, 2) + '\n', 0o600),
    remove: async () => {
      await rm(file, { force: true });
    },
  };
}

async function readCredential(file: string): Promise<SyncCredential | null> {
  return readPrivateJson(file, SyncCredential, "this device's sync key may be known; remove this device (`deskpilot devices remove` on another one) and pair it again", ' — pair this device again (`deskpilot devices pair --join`)');
}
