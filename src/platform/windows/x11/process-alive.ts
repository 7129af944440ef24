// Whether a process still exists. kill(pid, 0) alone is not enough: a zombie (exited, not yet
// reaped by its parent) still answers it, and for close_app's report a zombie has exited.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** The state letter from /proc/<pid>/stat ("pid (comm) S ..."; comm may contain spaces and parentheses). */
export function procStatState(stat: string): string | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  return stat.slice(close + 2, close + 3) || null;
}

export async function processAlive(pid: number): Promise<boolean> {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const state = procStatState(await readFile(`/proc/${pid}/stat`, 'utf8'));
    return state !== 'Z' && state !== 'X';
  } catch (err) {
    // Gone between the two checks; or a system without /proc, where kill's answer stands.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self/stat');
  }
}
