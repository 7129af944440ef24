import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from './state-file';

// DeskPilot's folders hold tab titles, URLs, typed requests and credentials. New ones are made
// 0700 and their files 0600 (state-file.ts); folders and files made before that (0755/0644,
// readable by every local user) are tightened when DeskPilot starts. Only what this user owns
// is changed (a shared or root-owned folder is the admin's choice), symlinks are left alone
// (the link's target may be a dotfiles repo), and nothing is widened. A folder that cannot be
// changed costs nothing but the privacy it already lacked, so failures are only reported.

/** Tightens `dirs` and the files and folders directly in them; returns what could not be tightened, in words. */
export async function keepPrivate(dirs: readonly string[], platform: NodeJS.Platform = process.platform): Promise<string[]> {
  // Windows has no Unix permission bits; its per-user folders are private already.
  if (platform === 'win32' || typeof process.getuid !== 'function') return [];
  const uid = process.getuid();
  const problems: string[] = [];
  const tighten = async (p: string, mode: number) => {
    const s = await lstat(p).catch(() => null);
    if (!s || s.isSymbolicLink() || s.uid !== uid || (s.mode & 0o077) === 0) return;
    if (!s.isFile() && !s.isDirectory()) return;
    await chmod(p, s.mode & mode & 0o7777).catch((e: unknown) => problems.push(`${p}: ${(e as Error).message}`));
  };
  for (const dir of new Set(dirs.map((d) => path.resolve(d)))) {
    await tighten(dir, PRIVATE_DIR);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const p = path.join(dir, name);
      const s = await lstat(p).catch(() => null);
      if (s) await tighten(p, s.isDirectory() ? PRIVATE_DIR : PRIVATE_FILE);
    }
  }
  return problems;
}
