// What a process's resident memory is made of, for the soak: the kernel's split (anonymous
// against file-backed pages, from /proc/<pid>/status) and V8's own account (process.memoryUsage()
// evaluated in the process through its inspector). Native memory is what is anonymous and
// resident but not V8's heap nor its buffers: malloc's arenas (glibc gives threads their own),
// libuv, OpenSSL, addons. An estimate (V8's committed heap need not all be resident), but one that
// moves with the parts it is made of. Malloc's own share is read directly: its main heap and its
// other arenas (glibc gives threads arenas of their own, up to 8 per core) are found in the
// process's memory map.
import { readFileSync } from 'node:fs';
import type CDP from 'chrome-remote-interface';

export interface MemoryParts {
  rssMiB: number;
  anonMiB: number;
  fileMiB: number;
  threads: number;
  /** V8's heap in use after a full collection. */
  heapUsedMiB: number;
  /** V8's heap committed (used + free room V8 keeps, semi-spaces included). */
  heapTotalMiB: number;
  /** ArrayBuffers and Buffers, outside V8's heap. */
  buffersMiB: number;
  /** Anonymous resident memory that is neither V8's committed heap nor buffers. */
  nativeMiB: number;
  /** Resident in glibc malloc's main heap ([heap]) and its other arenas, found in /proc/<pid>/smaps. */
  mallocMiB: number;
  /** How many arenas besides the main one. */
  arenas: number;
}

const MiB = 1024 * 1024;

function status(pid: number): { rss: number; anon: number; file: number; threads: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (key: string) => Number(text.match(new RegExp(`^${key}:\\s+(\\d+)`, 'm'))?.[1] ?? Number.NaN);
  return { rss: field('VmRSS') / 1024, anon: field('RssAnon') / 1024, file: field('RssFile') / 1024, threads: field('Threads') };
}

/** glibc's arenas other than the main one are 64 MiB reservations aligned to 64 MiB: a read-write part and the rest not accessible. */
const ARENA_BYTES = 64 * 1024 * 1024;

/** Resident memory of malloc's main heap and its other arenas, from /proc/<pid>/smaps. */
export function mallocResident(pid: number): { mallocMiB: number; arenas: number } {
  const maps: Array<{ start: number; end: number; perms: string; name: string; rssKiB: number }> = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) maps.push({ start: parseInt(head[1]!, 16), end: parseInt(head[2]!, 16), perms: head[3]!, name: head[4]!, rssKiB: 0 });
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length) maps.at(-1)!.rssKiB = Number(rss[1]);
  }
  let kib = 0;
  let arenas = 0;
  maps.forEach((m, i) => {
    if (m.name === '[heap]') kib += m.rssKiB;
    const next = maps[i + 1];
    const arena = m.name === '' && m.perms.startsWith('rw') && m.start % ARENA_BYTES === 0 && (m.end - m.start === ARENA_BYTES || (next?.start === m.end && next.name === '' && next.perms.startsWith('---') && next.end - m.start === ARENA_BYTES));
    if (arena) {
      kib += m.rssKiB;
      arenas++;
    }
  });
  return { mallocMiB: kib / 1024, arenas };
}

/** Full collection (twice: what the first frees through weak references goes in the second), then the parts. */
export async function memoryParts(pid: number, inspector: CDP.Client): Promise<MemoryParts> {
  await inspector.HeapProfiler.collectGarbage();
  await inspector.HeapProfiler.collectGarbage();
  const evaluated = await inspector.Runtime.evaluate({ expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
  const usage = JSON.parse(String(evaluated.result.value)) as { heapTotal: number; heapUsed: number; arrayBuffers: number };
  const s = status(pid);
  const heapTotalMiB = usage.heapTotal / MiB;
  const buffersMiB = usage.arrayBuffers / MiB;
  return {
    rssMiB: s.rss,
    anonMiB: s.anon,
    fileMiB: s.file,
    threads: s.threads,
    heapUsedMiB: usage.heapUsed / MiB,
    heapTotalMiB,
    buffersMiB,
    nativeMiB: s.anon - heapTotalMiB - buffersMiB,
    ...mallocResident(pid),
  };
}
