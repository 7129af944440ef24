import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './cli-path';
import { waitFor } from '../support/wait-for';

// A CLI command that keeps running (`deskpilot service`, `deskpilot mcp --http`): started as a
// child, ready once its output shows a line, stopped with SIGTERM the way a user's Ctrl-C does.

export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function startCli(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<RunningCli> {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => (done = true));
  await waitFor(`\`deskpilot ${args.join(' ')}\` to print ${ready}`, () => {
    if (done) throw new Error(`deskpilot ${args.join(' ')} exited early: ${err || out}`);
    return ready.test(out);
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (!done) child.kill('SIGTERM');
      return exited;
    },
  };
}
