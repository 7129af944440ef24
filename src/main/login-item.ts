import type { App } from 'electron';
import { setAutostart } from './autostart-linux';

// "Launch at login": Electron's login item on macOS and Windows, an XDG autostart entry on
// Linux. Started at login, DeskPilot stays in the tray (--hidden; macOS says wasOpenedAtLogin).

export const HIDDEN_FLAG = '--hidden';

export interface LoginItemTarget {
  platform: NodeJS.Platform;
  app: Pick<App, 'setLoginItemSettings'>;
  /** Linux: the autostart file and the command that starts this app. */
  autostart: { file: string; argv: string[] };
}

export async function applyLoginItem(openAtLogin: boolean, t: LoginItemTarget): Promise<void> {
  if (t.platform === 'linux') {
    await setAutostart(t.autostart.file, openAtLogin ? [...t.autostart.argv, HIDDEN_FLAG] : null);
  } else if (t.platform === 'win32') {
    t.app.setLoginItemSettings({ openAtLogin, args: [HIDDEN_FLAG] });
  } else if (t.platform === 'darwin') {
    t.app.setLoginItemSettings({ openAtLogin });
  }
}

/**
 * The command that starts the installed app: the AppImage itself when run from one (its
 * mount path changes every run), else the executable; unpackaged, Electron plus the app dir.
 */
export function startCommand(o: { execPath: string; appImage?: string; packaged: boolean; appPath: string }): string[] {
  if (o.appImage) return [o.appImage];
  return o.packaged ? [o.execPath] : [o.execPath, o.appPath];
}
