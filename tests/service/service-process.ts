import { spawn, type ChildProcess } from 'node:child_process';
import { connectService } from '../../src/platform/service/socket-client';
import { RemoteDesk } from '../../src/app/remote-desk';
import type { Health } from '../../src/protocol/service';
import { CLI } from '../support/cli';

// A real `deskpilot service` as a child process (its own process group), and a real client of
// its socket for the tests to ask what it served.

export interface ServiceProcess {
  pid: number;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited: Promise<number | string>;
  /** Resolves with the socket path from "listening on …"; rejects when the process exits first. */
  listening: Promise<string>;
  /** How the start ended: listening, or exited before it could. */
  started: Promise<{ listening: string } | { exited: number | string }>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL if it does not stop; never throws. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 10_000;

/** Every service started here and not yet stopped: a failed test must not leave one running. */
const running = new Set<ServiceProcess>();
process.on('exit', () => {
  for (const s of running) s.kill('SIGKILL');
});

export async function stopAllServices(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
}

export function spawnService(env: NodeJS.ProcessEnv, argv: string[] = [process.execPath, CLI, 'service']): ServiceProcess {
  const [cmd, ...args] = argv as [string, ...string[]];
  const child = spawn(cmd, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code ?? -1)));
  const listening = new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /listening on (.+)\n/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', check);
    void exited.then((how) => reject(new Error(`the service exited (${how}) before listening:\n${out}`)));
  });
  listening.catch(() => undefined);
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const svc: ServiceProcess = {
    pid: child.pid!,
    child,
    output: () => out,
    exited,
    listening,
    started: Promise.race([listening.then((p) => ({ listening: p })), exited.then((how) => ({ exited: how }))]),
    kill,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        kill('SIGTERM');
        const timer = setTimeout(() => kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      running.delete(svc);
    },
  };
  running.add(svc);
  void exited.then(() => running.delete(svc));
  return svc;
}

/** The service's health as a client of its socket sees it (null when nothing answers there). */
export async function serviceHealth(socketPath: string): Promise<(Health & { pid: number }) | null> {
  const client = await connectService(socketPath);
  if (!client) return null;
  try {
    const desk = await RemoteDesk.open(client);
    return { ...(await desk.health()), pid: desk.hello.pid };
  } finally {
    client.close();
  }
}
