import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ControlRequest, StandInState } from './control';
import type { CallRecord } from './runtime';

// The test's side: the real built main process started under the stand-in Electron as a child
// process, and what the test asks of it (control.ts). Every call main made to the stand-in
// arrives here as it happens (`calls`), also those made while it quits.

export interface StandInProcess {
  child: ChildProcess;
  calls: CallRecord[];
  /** Resolves with the exit code when the process has ended. */
  exited: Promise<number | null>;
  stderr(): string;
  request<T = unknown>(req: ControlRequest): Promise<T>;
  state(): Promise<StandInState>;
  /** Ends the process group if it is still running (a failed test). */
  kill(): void;
}

export function startStandIn(mainFile: string, env: NodeJS.ProcessEnv, args: string[] = []): StandInProcess {
  const child = fork(path.join(__dirname, 'launch.ts'), [mainFile, ...args], {
    execArgv: ['--import', 'tsx'],
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const calls: CallRecord[] = [];
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (err += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const replies = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let seq = 0;
  child.on('message', (m: { kind: string; call?: CallRecord; id?: number; ok?: boolean; value?: unknown; error?: string }) => {
    if (m.kind === 'call' && m.call) calls.push(m.call);
    if (m.kind === 'reply' && m.id !== undefined) {
      const r = replies.get(m.id);
      replies.delete(m.id);
      if (m.ok) r?.resolve(m.value);
      else r?.reject(new Error(m.error));
    }
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      for (const r of replies.values()) r.reject(new Error(`the stand-in exited (${code}) before answering\n${err}`));
      replies.clear();
      resolve(code);
    });
  });
  const request = <T>(req: ControlRequest) =>
    new Promise<T>((resolve, reject) => {
      if (!child.connected) return reject(new Error(`the stand-in is not running\n${err}`));
      const id = ++seq;
      replies.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, req });
    });
  return {
    child,
    calls,
    exited,
    stderr: () => err,
    request,
    state: () => request<StandInState>({ op: 'state' }),
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
