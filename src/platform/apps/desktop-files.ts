// Finding .desktop files and their desktop file ids under an applications directory.
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { stampDir, type DirStamp } from './dir-stamps';

export interface DesktopFile {
  /** Desktop file id: the path below the applications dir with "/" turned into "-", e.g. "kde4-kate.desktop". */
  id: string;
  file: string;
}

export interface DesktopFileScan {
  files: DesktopFile[];
  /** Every directory looked at (including missing roots), for cache invalidation. */
  stamps: DirStamp[];
}

/** All .desktop files below `root`, recursively, in a stable (name-sorted) order. */
export async function scanApplicationsDir(root: string): Promise<DesktopFileScan> {
  const files: DesktopFile[] = [];
  const stamps: DirStamp[] = [];
  const visited = new Set<string>(); // real paths, so symlinked directory loops end

  async function walk(dir: string, idPrefix: string): Promise<void> {
    // Stamp before reading, so a change during the scan shows up as a changed mtime later.
    stamps.push(await stampDir(dir));
    let entries: Dirent[];
    try {
      const real = await realpath(dir);
      if (visited.has(real)) return;
      visited.add(real);
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // missing or unreadable: nothing to list
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await stat(full).catch(() => null);
        isDir = !!target?.isDirectory();
        isFile = !!target?.isFile();
      }
      if (isDir) await walk(full, `${idPrefix}${entry.name}-`);
      else if (isFile && entry.name.endsWith('.desktop')) files.push({ id: idPrefix + entry.name, file: full });
    }
  }

  await walk(root, '');
  return { files, stamps };
}
