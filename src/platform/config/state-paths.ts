import { constants } from 'node:fs';
import { copyFile, cp, link, lstat, mkdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { DataDirs } from './config-dir';
import { reasonOf } from '../storage/state-file';

// Where each state file lives, and the one-time move of the files DeskPilot used to keep in
// the config folder into the state folder (issue 25). A move never loses anything: a rename
// when both folders are on one file system, else a copy put in place only where nothing is yet
// (link(2) refuses to replace), and the old one removed only after that. When the state folder
// cannot be written (read-only, not ours), the old file stays in use, and that is said once per
// process. An existing file in the state folder is never replaced: the old one is left beside
// it, and that is said.

/** The state files and folders, by what they hold, with their names (the same in both folders). */
export const STATE_ENTRIES = {
  history: 'history.jsonl',
  undo: 'undo.json',
  turns: 'turns.json',
  takenJournal: 'sync-taken.jsonl',
  chromeProfile: 'chrome-profile',
  syncDb: 'sync-server.sqlite',
} as const;

export type StatePaths = { [K in keyof typeof STATE_ENTRIES]: string } & {
  /** Rebuilt at will: in the cache folder, never moved. */
  chromeRun: string;
};

/** SQLite's companions travel with its database, or the moved database would lose its last writes. */
const COMPANIONS: Partial<Record<keyof typeof STATE_ENTRIES, string[]>> = { syncDb: ['-wal', '-shm', '-journal'] };

const said = new Set<string>();

export async function prepareStatePaths(dirs: DataDirs, warn: (message: string) => void): Promise<StatePaths> {
  const sayOnce = (message: string) => {
    if (said.has(message)) return;
    said.add(message);
    warn(message);
  };
  // Made here, once, so every writer (the sync journal too) finds it; a failure shows at the first write.
  await mkdir(dirs.state, { recursive: true, mode: 0o700 }).catch(() => undefined);
  const entries = Object.entries(STATE_ENTRIES) as Array<[keyof typeof STATE_ENTRIES, string]>;
  const resolved = await Promise.all(
    entries.map(async ([key, name]) => [key, await placeOf(name, dirs, COMPANIONS[key] ?? [], sayOnce)] as const),
  );
  return { ...(Object.fromEntries(resolved) as { [K in keyof typeof STATE_ENTRIES]: string }), chromeRun: path.join(dirs.cache, 'chrome-run') };
}

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : Promise.reject(e)),
  );

/** The path to use for one entry, after moving it from the config folder when it is still there. */
async function placeOf(name: string, dirs: DataDirs, companions: string[], say: (m: string) => void): Promise<string> {
  const target = path.join(dirs.state, name);
  if (path.resolve(dirs.state) === path.resolve(dirs.config)) return target;
  const old = path.join(dirs.config, name);
  try {
    if (!(await exists(old))) return target;
    if (await exists(target)) {
      say(`${old} is left where it was: ${target} already exists and is the one in use (merge or delete the old one)`);
      return target;
    }
    await mkdir(dirs.state, { recursive: true, mode: 0o700 });
    for (const suffix of companions) if (await exists(old + suffix)) await moveOnce(old + suffix, target + suffix);
    if (!(await moveOnce(old, target))) {
      say(`${old} is left where it was: ${target} appeared meanwhile and is the one in use`);
      return target;
    }
    say(`moved ${old} to ${target} (DeskPilot now keeps what it records in the state folder)`);
    return target;
  } catch (e) {
    // The old file stays in use, untouched: nothing is lost, and the next start tries again.
    say(`${old} stays in use: it could not be moved to ${dirs.state} (${reasonOf(e)})`);
    return old;
  }
}

/**
 * Moves `from` to `to` without ever replacing `to`; false when `to` appeared meanwhile. A file
 * is linked then unlinked (link(2) refuses to replace); a folder is renamed (rename(2) refuses
 * to replace a folder that holds anything).
 */
async function moveOnce(from: string, to: string): Promise<boolean> {
  if (await exists(to)) return false;
  const isDir = (await lstat(from)).isDirectory();
  try {
    if (isDir) await rename(from, to);
    else {
      await link(from, to);
      await unlink(from);
    }
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTEMPTY') return false;
    if (code === 'ENOENT' && !(await exists(from))) return true; // another DeskPilot moved it first
    // Another file system, or one without hard links: copy.
    if (code !== 'EXDEV' && !(code === 'EPERM' && !isDir)) throw e;
  }
  return copyAcross(from, to, isDir);
}

/** Another file system: a full copy under a temporary name, put in place only where nothing is, then the old one removed. */
async function copyAcross(from: string, to: string, isDir: boolean): Promise<boolean> {
  const tmp = `${to}.${process.pid}.moving`;
  try {
    if (isDir) {
      await cp(from, tmp, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
      // rename(2) would replace an empty folder: checked just before; a race leaves both, never loses either.
      if (await exists(to)) return false;
      await rename(tmp, to);
    } else {
      await copyFile(from, tmp, constants.COPYFILE_EXCL);
      try {
        await link(tmp, to);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw e;
      }
    }
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
  await (isDir ? rm(from, { recursive: true, force: true }) : unlink(from));
  return true;
}
