import os from 'node:os';
import path from 'node:path';

/** The platform's usual place for per-user settings, unless DESKPILOT_CONFIG_DIR says otherwise. */
export function defaultConfigDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'DeskPilot');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'DeskPilot');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'deskpilot');
}
