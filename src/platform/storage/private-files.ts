import type { Stats } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from './state-file';

// DeskPilot's folders hold tab titles, URLs, typed requests and credentials. New ones are made
// 0700 and their files 0600 (state-file.ts); folders and files made before that (0755/0644,
// readable by every local user) are tightened when DeskPilot starts. Only DeskPilot's own files
// are touched — by name, never everything in the folder, since --config-dir may name a folder
// that holds other things too (a project, a home) — and the folder itself only when it is
// DeskPilot's (named for it); only what this user owns is changed (a shared or root-owned folder
// is the admin's choice), symlinks are left alone (the link's target may be a dotfiles repo),
// and nothing is widened. A folder that cannot be changed costs nothing but the privacy it
// already lacked, so failures are only reported.

/** DeskPilot's files and folders in its config, state and cache folders; every sync-* file is one too. */
const OWN_FILES = new Set([
  'config.json',
  'presets.json',
  'tab-collections.json',
  'device-id',
  'secrets.json',
  'mcp-token',
  'service-owner.json',
  'history.jsonl',
  'undo.json',
  'turns.json',
  // The app's log (src/main/app-log.ts): it names tabs and requests too.
  'app.log',
]);
const OWN_DIRS = new Set(['chrome-profile', 'chrome-run', 'run']);
const isOwn = (name: string, dir: boolean) => (dir ? OWN_DIRS.has(name) : OWN_FILES.has(name) || name.startsWith('sync-'));

/** Tightens `dirs` and DeskPilot's files and folders directly in them; returns what could not be tightened, in words. */
export async function keepPrivate(dirs: readonly string[], platform: NodeJS.Platform = process.platform): Promise<string[]> {
  // Windows has no Unix permission bits; its per-user folders are private already.
  if (platform === 'win32' || typeof process.getuid !== 'function') return [];
  const uid = process.getuid();
  const problems: string[] = [];
  const tighten = async (p: string, s: Stats, mode: number) => {
    if (s.isSymbolicLink() || s.uid !== uid || (s.mode & 0o077) === 0) return;
    await chmod(p, s.mode & mode & 0o7777).catch((e: unknown) => problems.push(`${p}: ${(e as Error).message}`));
  };
  for (const dir of new Set(dirs.map((d) => path.resolve(d)))) {
    const own = await lstat(dir).catch(() => null);
    if (!own?.isDirectory()) continue;
    if (/deskpilot/i.test(path.basename(dir))) await tighten(dir, own, PRIVATE_DIR);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const p = path.join(dir, name);
      const s = await lstat(p).catch(() => null);
      if (!s || !(s.isFile() || s.isDirectory()) || !isOwn(name, s.isDirectory())) continue;
      await tighten(p, s, s.isDirectory() ? PRIVATE_DIR : PRIVATE_FILE);
    }
  }
  return problems;
}
