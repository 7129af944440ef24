import os from 'node:os';
import path from 'node:path';
import { xdgDir } from '../config/config-dir';

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
  const key = fnv1a64(path.resolve(configDir));
  if (platform === 'win32') return `\\\\?\\pipe\\deskpilot-${key}`;
  // A relative XDG_RUNTIME_DIR is invalid (the XDG spec): ignored, as config-dir.ts ignores the others.
  const runtime = xdgDir(env, 'XDG_RUNTIME_DIR');
  const candidates = [
    runtime ? path.join(runtime, 'deskpilot', `${key}.sock`) : null,
    // A folder of its own: the socket's folder is kept 0700, which the config folder need not be.
    path.join(configDir, 'run', 'service.sock'),
    path.join(os.tmpdir(), `deskpilot-${os.userInfo().uid}`, `${key}.sock`),
  ];
  return candidates.find((p): p is string => p !== null && Buffer.byteLength(p) <= MAX_UNIX_SOCKET_PATH) ?? candidates[2]!;
}

/**
 * 16 hex digits naming a config directory (FNV-1a, 64 bits). Not a secret, only a short
 * distinct name; hand-written because loading node:crypto costs the thin client, which runs
 * this on every call, a few milliseconds.
 */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) h = BigInt.asUintN(64, (h ^ BigInt(byte)) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}
