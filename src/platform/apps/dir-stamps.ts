// Cheap change detection for a cached directory scan: one stat per directory.
import { stat } from 'node:fs/promises';

/** A directory's mtime in nanoseconds when it was scanned; null when it did not exist. */
export interface DirStamp {
  dir: string;
  mtimeNs: bigint | null;
}

/**
 * File systems stamp mtimes from a coarse clock (a kernel tick, up to 10 ms), so a change made in
 * the same tick as the scan can leave the mtime unchanged. As git does with its "racily clean"
 * index entries, a scan is trusted only when every directory was last changed clearly before it.
 */
const RACY_WINDOW_NS = 100_000_000n;

export async function stampDir(dir: string): Promise<DirStamp> {
  try {
    return { dir, mtimeNs: (await stat(dir, { bigint: true })).mtimeNs };
  } catch {
    return { dir, mtimeNs: null };
  }
}

/** Whether a scan that started at `scannedAtMs` with these stamps still describes the directories. */
export async function stampsStillValid(stamps: readonly DirStamp[], scannedAtMs: number): Promise<boolean> {
  const scannedAtNs = BigInt(Math.floor(scannedAtMs)) * 1_000_000n;
  if (stamps.some((s) => s.mtimeNs !== null && s.mtimeNs >= scannedAtNs - RACY_WINDOW_NS)) return false;
  const now = await Promise.all(stamps.map((s) => stampDir(s.dir)));
  return now.every((s, i) => s.mtimeNs === stamps[i]!.mtimeNs);
}
