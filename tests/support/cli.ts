import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';

// Runs the real CLI as a child process — the way a user or another program runs it.

export const CLI = path.join(__dirname, '..', '..', 'bin', 'deskpilot.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

/** `uid`: run it as that user (through util-linux's setpriv; the test runs as root), e.g. where root would write anyway. */
export function runCli(args: string[], opts: { env: NodeJS.ProcessEnv; stdin?: string; uid?: number }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const argv = [process.execPath, CLI, ...args];
    if (opts.uid !== undefined) argv.unshift('setpriv', `--reuid=${opts.uid}`, `--regid=${opts.uid}`, '--clear-groups');
    const child = spawn(argv[0]!, argv.slice(1), { env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    endWithTheTest(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
    child.stdin.on('error', () => undefined); // the CLI may exit before reading all of stdin
    child.stdin.end(opts.stdin ?? '');
  });
}

/**
 * A CLI still running when its test ends (it failed or timed out) is killed, so it cannot act on
 * the desktop under the next test (close its tabs, move its windows).
 */
function endWithTheTest(child: ChildProcess): void {
  try {
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  } catch {
    // Not inside a test (a beforeAll/afterAll hook): the hook awaits it.
  }
}
