import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

// Starts real node processes running state-writer.ts and lets them update together.

const ROOT = path.join(__dirname, '..', '..');
export const WRITER = path.join(__dirname, 'state-writer.ts');

export interface Started {
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited; stderr is kept for the failure message. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Resolves when the process has printed this line on stdout. */
  printed(line: string): Promise<void>;
}

export function startNode(script: string, args: string[]): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin!.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  const printed = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.split('\n').includes(line)) return resolve();
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`exited before printing "${line}": ${stderr}`));
        waiters.push(check);
      };
      check();
      void exited.then(() => (stdout.split('\n').includes(line) ? resolve() : reject(new Error(`exited before printing "${line}": ${stderr}`))));
    });
  return { child, exited, printed };
}

/**
 * Runs one state-writer process per writer id, releases them all at once, and waits for
 * every one to exit. Throws with a process's stderr when one fails.
 */
export async function runWritersAtOnce(kind: string, dir: string, writers: number, updatesEach: number): Promise<void> {
  const started = Array.from({ length: writers }, (_, id) => startNode(WRITER, [kind, dir, String(id), String(updatesEach)]));
  try {
    await Promise.all(started.map((s) => s.printed('ready')));
    for (const s of started) s.child.stdin!.end('go\n');
    const results = await Promise.all(started.map((s) => s.exited));
    const failed = results.find((r) => r.code !== 0);
    if (failed) throw new Error(`a ${kind} writer failed (exit ${failed.code ?? failed.signal}): ${failed.stderr}`);
  } finally {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  }
}
