// The parent side of the window helper: one lazily forked child, request ids, a deadline per
// request. A helper that dies fails what it had in hand with an error a person can act on, and
// the next request forks a fresh one. A helper that misses a deadline is assumed stuck in a
// native call (nothing else can run in it then) and is killed.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { WindowGoneError, WindowsUnavailableError } from '../../../engine/errors';
import type { WorkerOp, WorkerOps, WorkerReply, WorkerRequest } from './nwm-protocol';

export interface NwmWorkerClientOptions {
  /** The helper script (nwm-worker.js). */
  workerPath: string;
  /** Absolute path (or bare name) of the module the helper requires. */
  modulePath: string;
  platform: 'win32' | 'darwin';
  requestTimeoutMs: number;
}

interface Pending {
  op: WorkerOp;
  args: unknown;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const STDERR_TAIL_CHARS = 2000;

/** One forked helper; its pending requests die with it. */
class Helper {
  readonly pending = new Map<number, Pending>();
  readonly exited: Promise<void>;
  stderrTail = '';
  /** Why it is being stopped on purpose; null while it is expected to live. */
  stopReason: string | null = null;

  constructor(
    readonly child: ChildProcess,
    onExit: (helper: Helper, reason: string) => void,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        onExit(this, signal ? `signal ${signal}` : `exit code ${code}`);
        resolve();
      });
    });
    const stderr = child.stderr as Socket | null;
    stderr?.setEncoding('utf8');
    stderr?.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    // Its stderr must not keep the CLI alive; the IPC channel is referenced only while waiting.
    stderr?.unref();
    this.idle();
  }

  busy(): void {
    this.child.ref();
    this.child.channel?.ref();
  }

  idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }

  /**
   * The last thing it said that is not a stack trace, for crash messages: an assertion or an
   * uncaught error says what failed; a bare abort prints only stack frames.
   */
  lastWords(): string {
    const said = this.stderrTail
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !/^(\d+:|at\s|-----)/.test(line));
    return said[said.length - 1] ?? '';
  }
}

export class NwmWorkerClient {
  private helper: Helper | null = null;
  private nextId = 1;
  private disposed = false;

  constructor(private readonly options: NwmWorkerClientOptions) {}

  /** The running helper's pid, or null when none is running. */
  pid(): number | null {
    return this.helper?.child.pid ?? null;
  }

  request<K extends WorkerOp>(op: K, args: WorkerOps[K]['args'], timeoutMs = this.options.requestTimeoutMs): Promise<WorkerOps[K]['result']> {
    if (this.disposed) return Promise.reject(new WindowsUnavailableError('the window helper has been shut down'));
    let helper: Helper;
    try {
      helper = this.ensureHelper();
    } catch (err) {
      return Promise.reject(err);
    }
    const id = this.nextId++;
    return new Promise<WorkerOps[K]['result']>((resolve, reject) => {
      const timer = setTimeout(() => this.timedOut(helper, id), timeoutMs);
      helper.pending.set(id, { op, args, timeoutMs, resolve: resolve as (value: unknown) => void, reject, timer });
      helper.busy();
      const message: WorkerRequest = { id, op, args };
      helper.child.send(message, (error) => {
        if (error) this.settle(helper, id, (p) => p.reject(new WindowsUnavailableError(`the window helper could not be reached (${error.message}); it will restart on the next command`)));
      });
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const helper = this.helper;
    if (helper) await this.stop(helper, 'the window helper was shut down');
  }

  private ensureHelper(): Helper {
    if (this.helper) return this.helper;
    const { workerPath, modulePath, platform } = this.options;
    if (!existsSync(workerPath)) {
      throw new WindowsUnavailableError(
        `the window helper script is missing (${workerPath}); a bundled build must ship nwm-worker.js and pass its path as workerPath`,
      );
    }
    // execArgv [] so that a parent under tsx, vitest or --inspect does not hand its loaders and
    // debugger ports to a plain-JS child. Under Electron, fork runs Electron's binary as Node.
    const child = fork(workerPath, [modulePath, platform], {
      execArgv: [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
      windowsHide: true,
    });
    const helper = new Helper(child, (h, reason) => this.exited(h, reason));
    child.on('message', (message: WorkerReply) => this.answered(helper, message));
    child.on('error', (error) => {
      // Spawn failures and broken channels; exit (if the child ever started) follows separately.
      for (const id of [...helper.pending.keys()]) {
        this.settle(helper, id, (p) => p.reject(new WindowsUnavailableError(`the window helper failed (${error.message}); it will restart on the next command`)));
      }
      if (this.helper === helper) this.helper = null;
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    this.helper = helper;
    return helper;
  }

  private answered(helper: Helper, message: WorkerReply): void {
    this.settle(helper, message.id, (p) => {
      if (message.ok) p.resolve(message.result);
      else p.reject(this.replyError(p, message.error.kind, message.error.message));
    });
  }

  private replyError(p: Pending, kind: string, message: string): Error {
    if (kind === 'gone') return new WindowGoneError(String((p.args as { handle?: number }).handle));
    return new WindowsUnavailableError(message);
  }

  private timedOut(helper: Helper, id: number): void {
    const p = helper.pending.get(id);
    if (!p) return;
    this.settle(helper, id, () =>
      p.reject(
        new WindowsUnavailableError(
          `the window helper did not answer "${p.op}" within ${p.timeoutMs} ms (a window may not be responding); it was stopped and will restart on the next command`,
        ),
      ),
    );
    void this.stop(helper, `the window helper was restarted because "${p.op}" did not answer in time`);
  }

  private async stop(helper: Helper, reason: string): Promise<void> {
    helper.stopReason ??= reason;
    if (this.helper === helper) this.helper = null;
    // Fail what it holds now: their own deadlines would otherwise report a misleading timeout.
    for (const id of [...helper.pending.keys()]) this.settle(helper, id, (p) => p.reject(new WindowsUnavailableError(reason)));
    const { child } = helper;
    if (child.pid === undefined) return; // never started: no exit will come
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await helper.exited;
  }

  private exited(helper: Helper, reason: string): void {
    if (this.helper === helper) this.helper = null;
    const words = helper.lastWords();
    const message =
      helper.stopReason ?? `the window helper crashed (${reason}${words ? `: ${words}` : ''}); it will restart on the next command`;
    for (const id of [...helper.pending.keys()]) this.settle(helper, id, (p) => p.reject(new WindowsUnavailableError(message)));
  }

  private settle(helper: Helper, id: number, finish: (p: Pending) => void): void {
    const p = helper.pending.get(id);
    if (!p) return;
    helper.pending.delete(id);
    clearTimeout(p.timer);
    if (helper.pending.size === 0) helper.idle();
    finish(p);
  }
}
