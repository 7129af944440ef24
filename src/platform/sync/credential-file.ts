import { lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseJsonOf } from '../../protocol/json-syntax';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { readStateText, reasonOf, StateFileError, writeStateText } from '../storage/state-file';

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
  read(): Promise<SyncCredential | null>;
  write(c: SyncCredential): Promise<void>;
  remove(): Promise<void>;
}

export function credentialFile(configDir: string): CredentialStore {
  const file = path.join(configDir, CREDENTIAL_FILE);
  return {
    where: file,
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

/**
 * A private JSON file of this device (0600): null when missing; refused when others can read
 * it (`leaked` says what that means), malformed or not matching `schema` (`fix` says what to do).
 */
export async function readPrivateJson<T>(file: string, schema: z.ZodType<T>, leaked: string, fix = ''): Promise<T | null> {
  const text = await readStateText(file);
  if (text === null) return null;
  if (process.platform !== 'win32') {
    const info = await lstat(file).catch((e: unknown) => {
      throw new StateFileError(`${file}: cannot be read (${reasonOf(e)})`);
    });
    if ((info.mode & 0o077) !== 0) throw new StateFileError(`${file}: others can read it (mode ${(info.mode & 0o777).toString(8)}), so ${leaked}`);
  }
  const json = parseJsonOf(file, text);
  if (!json.ok) throw new StateFileError(json.error + fix);
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) throw new StateFileError(`${file}: ${zodErrors(parsed.error, json.value).map(formatFieldError).join('; ')}${fix}`);
  return parsed.data;
}
