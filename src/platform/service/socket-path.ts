import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

// Where the warm service listens. One service per config directory (tests and a second
// profile each get their own), in a place only this user can reach: the per-user runtime
// directory, else the config directory, else a private folder in the temp directory when
// the path would be too long for a Unix socket (about 104 bytes on macOS, 108 on Linux).

const MAX_UNIX_SOCKET_PATH = 100;

export function serviceSocketPath(
  configDir: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const key = createHash('sha256').update(path.resolve(configDir)).digest('hex').slice(0, 16);
  if (platform === 'win32') return `\\\\?\\pipe\\deskpilot-${key}`;
  const candidates = [
    env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'deskpilot', `${key}.sock`) : null,
    // A folder of its own: the socket's folder is kept 0700, which the config folder need not be.
    path.join(configDir, 'run', 'service.sock'),
    path.join(os.tmpdir(), `deskpilot-${os.userInfo().uid}`, `${key}.sock`),
  ];
  return candidates.find((p): p is string => p !== null && Buffer.byteLength(p) <= MAX_UNIX_SOCKET_PATH) ?? candidates[2]!;
}
