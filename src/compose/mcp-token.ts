import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

// The bearer token of `deskpilot mcp --http`: made once into the config directory, readable
// by this user only (created 0600 in one step, never world-readable for a moment), shown
// once when it is made. A file someone else could read is refused rather than trusted.

export const TOKEN_FILE = 'mcp-token';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,200}$/;

export class McpTokenError extends Error {
  override name = 'McpTokenError';
}

export interface McpToken {
  token: string;
  file: string;
  /** Made just now: the only time it is shown. */
  created: boolean;
}

export async function loadOrCreateToken(configDir: string, opts: { renew?: boolean } = {}): Promise<McpToken> {
  const file = path.join(configDir, TOKEN_FILE);
  if (opts.renew) await unlink(file).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
  const existing = await readToken(file);
  if (existing) return { token: existing, file, created: false };
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  try {
    // 'wx': fails if another process made it meanwhile; mode applies at creation.
    await writeFile(file, token + '\n', { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { token: (await readToken(file))!, file, created: false };
    throw new McpTokenError(`${file}: cannot be written (${(e as Error).message})`);
  }
  return { token, file, created: true };
}

async function readToken(file: string): Promise<string | null> {
  let info;
  try {
    info = await lstat(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new McpTokenError(`${file}: cannot be read (${(e as Error).message})`);
  }
  if (!info.isFile()) throw new McpTokenError(`${file}: is not a regular file; remove it and start again (a new token is made)`);
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    throw new McpTokenError(
      `${file}: others can read it (mode ${(info.mode & 0o777).toString(8)}), so the token may be known; start with --new-token to replace it`,
    );
  }
  const token = (await readFile(file, 'utf8')).trim();
  if (!TOKEN_SHAPE.test(token)) throw new McpTokenError(`${file}: does not hold a token; start with --new-token to replace it`);
  return token;
}
