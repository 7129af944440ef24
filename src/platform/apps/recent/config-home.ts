import os from 'node:os';
import path from 'node:path';

/** Where apps keep their settings per platform: ~/.config (XDG_CONFIG_HOME), ~/Library/Application Support, %APPDATA%. */
export function configHome(platform: NodeJS.Platform | string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA || path.join(home, 'AppData', 'Roaming');
  return env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
}
