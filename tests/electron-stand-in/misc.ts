import { existsSync } from 'node:fs';
import type * as Electron from 'electron';
import type { StandIn, StandInReturning } from './electron-types';
import { recordCall } from './runtime';
import { StandInNativeImage } from './tray';

// The small modules: recorded, and answered as Electron would on this desktop. safeStorage is a
// fake (there is no keyring here): it round-trips strings without real encryption, tests only.

export const nativeImage = {
  createFromPath(path: string): StandInNativeImage {
    recordCall('nativeImage.createFromPath', path);
    // Electron gives an empty image for a file it cannot read, rather than failing.
    return new StandInNativeImage(path, existsSync(path));
  },
} satisfies StandInReturning<typeof Electron.nativeImage, 'createFromPath'>;

export const globalShortcutState = {
  registered: new Map<string, () => void>(),
  /** Accelerators "another app" holds (DESKPILOT_STAND_IN_TAKEN_SHORTCUTS, comma-separated): register answers false. */
  taken: new Set((process.env.DESKPILOT_STAND_IN_TAKEN_SHORTCUTS ?? '').split(',').filter(Boolean)),
};

export const globalShortcut = {
  register(accelerator: string, callback: () => void): boolean {
    recordCall('globalShortcut.register', accelerator);
    if (globalShortcutState.taken.has(accelerator) || globalShortcutState.registered.has(accelerator)) return false;
    globalShortcutState.registered.set(accelerator, callback);
    return true;
  },
  unregister(accelerator: string): void {
    recordCall('globalShortcut.unregister', accelerator);
    globalShortcutState.registered.delete(accelerator);
  },
  unregisterAll(): void {
    recordCall('globalShortcut.unregisterAll');
    globalShortcutState.registered.clear();
  },
  isRegistered(accelerator: string): boolean {
    return globalShortcutState.registered.has(accelerator);
  },
} satisfies StandIn<Electron.GlobalShortcut, 'register' | 'unregister' | 'unregisterAll' | 'isRegistered'>;

const FAKE = 'stand-in-not-encrypted:';

export const safeStorage = {
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return true;
  },
  async encryptStringAsync(plainText: string): Promise<Buffer> {
    recordCall('safeStorage.encryptStringAsync');
    return Buffer.from(FAKE + Buffer.from(plainText, 'utf8').toString('base64'), 'utf8');
  },
  async decryptStringAsync(encrypted: Buffer): Promise<Electron.DecryptStringAsyncReturnValue> {
    recordCall('safeStorage.decryptStringAsync');
    const s = encrypted.toString('utf8');
    if (!s.startsWith(FAKE)) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return { result: Buffer.from(s.slice(FAKE.length), 'base64').toString('utf8'), shouldReEncrypt: false };
  },
  getSelectedStorageBackend(): ReturnType<Electron.SafeStorage['getSelectedStorageBackend']> {
    return 'gnome_libsecret';
  },
} satisfies StandIn<Electron.SafeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>;

type PermissionRequest = Parameters<Electron.Session['setPermissionRequestHandler']>[0];
type PermissionCheck = Parameters<Electron.Session['setPermissionCheckHandler']>[0];

class StandInSession implements StandIn<Electron.Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'> {
  permissionRequest: PermissionRequest = null;
  permissionCheck: PermissionCheck = null;

  setPermissionRequestHandler(handler: PermissionRequest): void {
    recordCall('session.setPermissionRequestHandler');
    this.permissionRequest = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheck): void {
    recordCall('session.setPermissionCheckHandler');
    this.permissionCheck = handler;
  }
}

export const session = { defaultSession: new StandInSession() };

export const shell = {
  async openExternal(url: string, options?: Electron.OpenExternalOptions): Promise<void> {
    recordCall('shell.openExternal', url, options);
  },
} satisfies StandIn<Electron.Shell, 'openExternal'>;

export const dialog = {
  showErrorBox(title: string, content: string): void {
    recordCall('dialog.showErrorBox', title, content);
    process.stderr.write(`[stand-in dialog] ${title}: ${content}\n`);
  },
} satisfies StandIn<Electron.Dialog, 'showErrorBox'>;

export const systemPreferences = {
  async askForMediaAccess(mediaType: 'microphone' | 'camera'): Promise<boolean> {
    recordCall('systemPreferences.askForMediaAccess', mediaType);
    return true;
  },
} satisfies StandIn<Electron.SystemPreferences, 'askForMediaAccess'>;
