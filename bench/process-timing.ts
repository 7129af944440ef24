// Timing whole processes from outside, the way a person or a script meets them: from spawn to
// exit, start-up included. Wall time per run; CPU time from the kernel's accounting of reaped
// children (/proc/self/stat cutime + cstime), so a loaded machine shows in wall time but barely
// in CPU time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface ProcessRun {
  ms: number;
  /** CPU (user + system) of the process, in ms; null where /proc is missing. Resolution: one clock tick (10 ms). */
  cpuMs: number | null;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Linux's USER_HZ: /proc reports times in these ticks on every architecture. */
const TICK_MS = 10;

/** CPU time of this process's waited-for children so far, in ms. */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after "pid (comm) ": state is field 3, cutime field 16, cstime field 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return null;
  }
}

/** Runs one command to its end. Children that exit meanwhile (none should) would be counted in its CPU. */
export function timeProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuMs();
    const start = performance.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      const cpuAfter = childrenCpuMs();
      resolve({ ms, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, code, stdout, stderr });
    });
  });
}

/** VmRSS and VmHWM (peak) of a running process, in MiB, from /proc/<pid>/status. */
export function residentMemory(pid: number): { rssMiB: number; peakMiB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key: string) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}
