import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// Launch at login on Linux: an XDG autostart entry, ~/.config/autostart/deskpilot.desktop
// ($XDG_CONFIG_HOME respected). Electron's setLoginItemSettings covers only macOS and Windows.

export const AUTOSTART_NAME = 'deskpilot.desktop';

export function autostartFile(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(configHome, 'autostart', AUTOSTART_NAME);
}

/** One argument quoted per the Desktop Entry spec (Exec key): only when it needs it. */
export function quoteExecArg(arg: string): string {
  const escaped = arg.replace(/%/g, '%%');
  if (escaped !== '' && !/[\s"'\\><~|&;$*?#()`]/.test(escaped)) return escaped;
  return `"${escaped.replace(/(["`$\\])/g, '\\$1')}"`;
}

export const execLine = (argv: string[]): string => argv.map(quoteExecArg).join(' ');

export function desktopEntry(argv: string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=DeskPilot',
    'Comment=Menu-bar desktop assistant',
    `Exec=${execLine(argv)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Writes the entry (argv = the command that starts DeskPilot), or removes it when argv is null. */
export async function setAutostart(file: string, argv: string[] | null): Promise<void> {
  if (argv === null) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, desktopEntry(argv), 'utf8');
  await rename(tmp, file);
}
