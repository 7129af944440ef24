import type { SecretStore } from '../config/settings-store';
import { parseJsonOf } from '../../protocol/json-syntax';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { StateFileError } from '../storage/state-file';
import { SyncCredential, type CredentialStore } from './credential-file';

// The app's sync credential, in the OS keychain (the app's SecretStore: Electron safeStorage)
// rather than a file. A device paired from the command line has its credential in the 0600
// file: the app uses that one until it pairs itself, and the file stays, since the CLI cannot
// read the keychain.

export const SYNC_CREDENTIAL_KEY = 'sync.credential';

export function keychainCredentials(secrets: SecretStore, file: CredentialStore): CredentialStore {
  return {
    where: `the system keychain (or ${file.where})`,
    read: async () => {
      const stored = await secrets.get(SYNC_CREDENTIAL_KEY);
      if (stored === null) return file.read();
      const json = parseJsonOf(SYNC_CREDENTIAL_KEY, stored);
      if (!json.ok) throw new StateFileError(`the sync credential in the keychain is damaged (${json.error}): pair this device again`);
      const parsed = SyncCredential.safeParse(json.value);
      if (!parsed.success) throw new StateFileError(`the sync credential in the keychain is damaged (${zodErrors(parsed.error, json.value).map(formatFieldError).join('; ')}): pair this device again`);
      return parsed.data;
    },
    write: (c) => secrets.set(SYNC_CREDENTIAL_KEY, JSON.stringify(SyncCredential.parse(c))),
    remove: async () => {
      await secrets.set(SYNC_CREDENTIAL_KEY, null);
      await file.remove();
    },
  };
}
