// Small timing and reporting helpers shared by the benches. Figures only: nothing here asserts.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sleep } from '../src/engine/sleep';

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of already sorted samples. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Milliseconds taken by `fn` (wall clock, high resolution). */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** "p50 (p95)" */
export function fmtStats(s: Stats | null): string {
  return s ? `${fmtMs(s.p50)} (${fmtMs(s.p95)})` : '—';
}

export function fmtRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  return ratio >= 10 ? `${ratio.toFixed(0)}x` : `${ratio.toFixed(1)}x`;
}

/** A table with columns padded to their widest cell; the first row is the header. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const line = (row: readonly string[]) => row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ').trimEnd();
  const [header, ...body] = rows;
  if (!header) return '';
  const rule = widths.map((w) => '-'.repeat(w)).join('-+-');
  return [line(header), rule, ...body.map(line)].join('\n');
}

export function machineNote(extra: string[] = []): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const gib = (os.totalmem() / 1024 ** 3).toFixed(0);
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  return [`${cpus.length} cores (${model})`, `${gib} GiB RAM`, `Node ${process.version}`, ...extra, `load avg ${load}`].join(', ');
}

// The benches wait with the one shared sleep.
export { sleep };

function cpuTimes(): { idle: number; total: number } | null {
  try {
    // Linux: "cpu  user nice system idle iowait irq softirq steal ..." in clock ticks.
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total };
  } catch {
    return null;
  }
}

/**
 * Waits until the machine is mostly idle (e.g. freshly opened tabs finished loading and painting),
 * so that work does not leak into the timed calls. Resolves with the ms waited.
 */
export async function waitForQuietCpu(opts: { idleFraction?: number; sampleMs?: number; maxMs?: number } = {}): Promise<number> {
  const { idleFraction = 0.85, sampleMs = 250, maxMs = 10_000 } = opts;
  const start = performance.now();
  let before = cpuTimes();
  if (!before) {
    await sleep(1000);
    return performance.now() - start;
  }
  while (performance.now() - start < maxMs) {
    await sleep(sampleMs);
    const now = cpuTimes()!;
    const total = now.total - before.total;
    if (total > 0 && (now.idle - before.idle) / total >= idleFraction) break;
    before = now;
  }
  return performance.now() - start;
}

/** CPU ticks (user + system, all threads) of a process and all its descendants, from /proc; null where /proc is missing. */
function treeTicks(root: number): number | null {
  try {
    const procs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
    const parent = new Map<number, number>();
    const ticks = new Map<number, number>();
    for (const d of procs) {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        // After "pid (comm) ": ppid is field 4, utime 14, stime 15.
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parent.set(Number(d), Number(f[1]));
        ticks.set(Number(d), Number(f[11]) + Number(f[12]));
      } catch {
        // Exited between the listing and the read.
      }
    }
    let sum = 0;
    for (const [pid, t] of ticks) {
      for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
        if (p === root) {
          sum += t;
          break;
        }
      }
    }
    return ticks.has(root) ? sum : null;
  } catch {
    return null;
  }
}

/**
 * Waits until a process and its descendants have been quiet (under `busyBelow` of one core) for
 * `quietMs` in a row — e.g. a browser that was just given 300 tabs, which keeps loading,
 * laying out and saving them for a minute or more after the last one opened, and whose work
 * would otherwise land in the middle of whatever is timed next. Resolves with the ms waited and
 * whether it settled before `maxMs`.
 */
export async function waitForQuietTree(root: number, opts: { busyBelow?: number; quietMs?: number; maxMs?: number } = {}): Promise<{ ms: number; settled: boolean }> {
  const { busyBelow = 0.05, quietMs = 5000, maxMs = 240_000 } = opts;
  const SAMPLE_MS = 1000;
  const start = performance.now();
  let before = treeTicks(root);
  if (before === null) return { ms: 0, settled: false };
  let quietSince = start;
  while (performance.now() - start < maxMs) {
    await sleep(SAMPLE_MS);
    const now = treeTicks(root);
    if (now === null) return { ms: performance.now() - start, settled: false };
    // Ticks are 10 ms: at busyBelow 0.05, a second with 5 ticks or more is busy.
    if (((now - before) * 10) / SAMPLE_MS >= busyBelow) quietSince = performance.now();
    else if (performance.now() - quietSince >= quietMs) return { ms: performance.now() - start, settled: true };
    before = now;
  }
  return { ms: performance.now() - start, settled: false };
}

/**
 * Ctrl-C or SIGTERM during a bench runs `cleanup` (stop the desktop and what it spawned)
 * before exiting 130; a second signal exits at once. Returns the function that uninstalls it.
 */
export function cleanUpOnInterrupt(cleanup: () => Promise<void>): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the desktop…`);
    process.once(signal, () => process.exit(130));
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
