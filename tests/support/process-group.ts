import { readdirSync, readFileSync } from 'node:fs';
import { waitFor } from './wait-for';

// Process groups the tests start (each app or browser leads its own): who is still in one, and
// how to end one for sure. No vitest here: the desktop (and so the benchmarks) use it too.

/** pids in process group `pgid` that are still running (zombies don't count: only their parent can reap them). */
export function liveGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp ..." — comm may contain spaces and parentheses.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
    } catch {
      // exited while we were looking
    }
  }
  return members;
}

/** SIGTERM the group and wait (generously) until none of it runs; SIGKILL what did not listen. */
export async function stopGroup(pgid: number): Promise<void> {
  if (!(pgid > 1)) return; // kill(-0) would signal our own group: never
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    try {
      process.kill(-pgid, signal);
    } catch {
      return; // ESRCH: already gone
    }
    const gone = await waitFor(`process group ${pgid} to exit on ${signal}`, () => liveGroupMembers(pgid).length === 0).catch(() => false);
    if (gone) return;
  }
}
