import { DeskPilotError, errorMessage } from '../engine/errors';
import { SERVICE_PROTOCOL_VERSION, ServiceRequest, type Hello, type ServiceEvent, type ServiceParams } from '../protocol/service';
import type { CliMessage, CliStream } from '../protocol/service-wire';
import { formatFieldError, zodErrors } from '../protocol/validation';
import type { Desk } from './desk';
import { ConfirmTokenStore } from './confirm-tokens';
import { PendingConsents } from './sync/remote-consent';
import { watchDesk, type TabChangeSource, type Watch } from './desk-watcher';

// The host of a desk's long-lived parts: it owns the one warm engine (through a Desk) and
// answers the socket protocol with it. The CLI and the app's windows are its clients; the
// MCP HTTP endpoint and the cross-device worker hang off the same host.

export interface HostConnection {
  send(value: unknown): void;
  onClose(fn: () => void): void;
}

/** The CLI's terminal as the service gives it to the CLI it runs for a thin client (the shape of src/cli/io.ts's Io). */
export interface ClientIo {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
  interactive(): boolean;
  ask(question: string): Promise<string>;
  /** The client's working directory: relative paths in its arguments mean paths there. */
  cwd: string;
  helpWidth(stream: 'out' | 'err'): number | undefined;
}

/** Runs the CLI's own main(argv) in this process for a thin client, on `desk`; resolves with its exit code. */
export type RunCli = (argv: string[], io: ClientIo, desk: Desk) => Promise<number>;

export interface ServiceHostDeps {
  desk: Desk;
  hello: Omit<Hello, 'service' | 'protocol'>;
  /** Chrome's tab events as the engine follows them: subscribers hear of tab changes at once instead of within a second. */
  tabChanges?: TabChangeSource;
  /** Other devices' requests waiting for this desk's user (default: a new, empty set); the device worker asks through it. */
  consents?: PendingConsents;
}

export class ServiceHost {
  private readonly subscribers = new Set<HostConnection>();
  private readonly served: Record<string, number> = {};
  /** Watches the desk while anyone is subscribed (tabs by Chrome's events, windows by a signature compared every second). */
  private stopWatching: Watch | null = null;
  /** Set when this host runs the CLI for thin clients of that build (the CLI's service does; the app does not). */
  private cli: { build: string; run: RunCli } | null = null;
  /** Questions of running `cli` calls that wait for the client's answer, by connection and call id. */
  private readonly questions = new WeakMap<HostConnection, Map<number, (line: string) => void>>();

  /** Questions from other devices to this desk's user, answered over the socket (consent.*). */
  readonly consents: PendingConsents;
  /** Batches shown to a user through any MCP process, waiting for their confirm_token (confirm.*). */
  private readonly confirmTokens = new ConfirmTokenStore();

  constructor(private readonly deps: ServiceHostDeps) {
    this.consents = deps.consents ?? new PendingConsents();
  }

  /** From now on, `cli` requests run `run`; hello says which build of the CLI that is. */
  serveCli(build: string, run: RunCli): void {
    this.cli = { build, run };
  }

  /**
   * The host's desk as the CLI run for one client uses it: each call is counted in `served`
   * under its method as if it had come over the socket; closing it leaves the engine running.
   * Once the client is gone (`left`: Ctrl-C, a closed terminal) nothing new starts — as when
   * the CLI's own process is stopped — and a plan under way (an LLM request) is aborted.
   */
  private deskFor(left: AbortSignal): Desk {
    const desk = this.deps.desk;
    const live =
      <A extends unknown[], R>(method: string, fn: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        if (left.aborted) throw new DeskPilotError('the client went away: not started', 'cancelled');
        this.count(method);
        return fn(...args);
      };
    return {
      via: desk.via,
      snapshot: live('snapshot', (opts) => desk.snapshot(opts)),
      health: live('health', () => desk.health()),
      focusedApp: live('focusedApp', () => desk.focusedApp()),
      plan: live('plan', (text, opts) => desk.plan(text, { ...opts, signal: opts.signal ? AbortSignal.any([opts.signal, left]) : left })),
      prepare: live('prepare', (input, opts) => desk.prepare(input, opts)),
      run: live('run', (batch) => desk.run(batch)),
      exec: live('exec', (input, opts) => desk.exec(input, opts)),
      remember: live('remember', (turn) => desk.remember(turn)),
      listPresets: live('presets.list', () => desk.listPresets()),
      savePreset: live('presets.save', (name, apps) => desk.savePreset(name, apps)),
      deletePreset: live('presets.delete', (name) => desk.deletePreset(name)),
      close: async () => {},
    };
  }

  private count(method: string): void {
    this.served[method] = (this.served[method] ?? 0) + 1;
  }

  /** One message from a client: checked, answered on the same connection. Never throws. */
  async handle(message: unknown, conn: HostConnection): Promise<void> {
    const id = typeof message === 'object' && message !== null && typeof (message as { id?: unknown }).id === 'number' ? (message as { id: number }).id : 0;
    const parsed = ServiceRequest.safeParse(message);
    if (!parsed.success) {
      const errors = zodErrors(parsed.error, message).map(formatFieldError).join('; ');
      conn.send({ id, ok: false, error: { code: 'bad_request', message: `invalid request: ${errors}` } });
      return;
    }
    // A call for a CLI of another build is refused before anything runs (and is not counted as served).
    const req = parsed.data;
    if (req.method === 'cli' && this.cli && req.params.build !== undefined && req.params.build !== this.cli.build) {
      const message = `this DeskPilot service runs build ${this.cli.build}, not ${req.params.build}: run the command in its own process`;
      conn.send({ id, ok: false, error: { code: 'refused', message } });
      return;
    }
    this.count(req.method);
    try {
      conn.send({ id, ok: true, result: await this.answer(req, conn) });
    } catch (e) {
      const code = e instanceof DeskPilotError ? e.code : 'failed';
      conn.send({ id, ok: false, error: { code, message: errorMessage(e) } });
    }
  }

  /** Stops watching the desk (the service is stopping); questions still waiting count as not confirmed. */
  close(): void {
    this.stopWatch();
    this.consents.close();
  }

  private stopWatch(): void {
    this.stopWatching?.();
    this.stopWatching = null;
  }

  private unsubscribe(conn: HostConnection): void {
    this.subscribers.delete(conn);
    if (this.subscribers.size === 0) this.stopWatch();
  }

  /** Tells every subscriber that the desk changed. */
  publish(event: ServiceEvent): void {
    for (const c of this.subscribers) c.send(event);
  }

  private async answer(req: ServiceRequest, conn: HostConnection): Promise<unknown> {
    const desk = this.deps.desk;
    switch (req.method) {
      case 'hello':
        return { service: 'deskpilot', protocol: SERVICE_PROTOCOL_VERSION, ...this.deps.hello, ...(this.cli ? { build: this.cli.build } : {}) };
      case 'health':
        return { ...(await desk.health()), served: { ...this.served } };
      case 'snapshot':
        return desk.snapshot({ summaries: req.params.summaries });
      case 'plan':
        return desk.plan(req.params.text, { mode: req.params.mode, snapshot: req.params.snapshot, frontmost: req.params.frontmost ?? null });
      case 'prepare':
        return desk.prepare(req.params.input, { snapshot: req.params.snapshot });
      case 'run':
        return desk.run(req.params.batch);
      case 'exec':
        return desk.exec(req.params.input, { dryRun: req.params.dry_run, snapshot: req.params.snapshot });
      case 'remember':
        await desk.remember(req.params.turn);
        return { ok: true };
      case 'presets.list':
        return desk.listPresets();
      case 'presets.save':
        return desk.savePreset(req.params.name, req.params.apps);
      case 'presets.delete':
        return { deleted: await desk.deletePreset(req.params.name) };
      case 'subscribe':
        if (!this.subscribers.has(conn)) {
          this.subscribers.add(conn);
          conn.onClose(() => this.unsubscribe(conn));
        }
        this.stopWatching ??= watchDesk(desk, (what) => this.publish({ event: 'desk.changed', data: { at: Date.now(), what } }), {
          tabChanges: this.deps.tabChanges,
        });
        // Answered once the watch has its starting point: every change after this answer is told.
        await this.stopWatching.ready;
        return { topics: req.params.topics };
      case 'cli': {
        if (!this.cli) throw new DeskPilotError('this DeskPilot host does not run the CLI: run the command in its own process', 'refused');
        // Registered while the request is handled, so the connection is still open.
        const left = new AbortController();
        conn.onClose(() => left.abort());
        return { exit_code: await this.cli.run(req.params.argv, this.clientIo(req.id, req.params, conn, left.signal), this.deskFor(left.signal)) };
      }
      case 'cli.answer': {
        const answer = this.questions.get(conn)?.get(req.params.call);
        if (!answer) throw new DeskPilotError(`no question of call ${req.params.call} waits for an answer on this connection`, 'bad_request');
        answer(req.params.line);
        return { ok: true };
      }
      case 'consent.list':
        return { requests: this.consents.list() };
      case 'consent.answer':
        if (!this.consents.answer(req.params.id, req.params.yes)) {
          throw new DeskPilotError(`no request ${req.params.id} waits for an answer here (answered already, expired, or never asked)`, 'stale');
        }
        return { ok: true };
      case 'confirm.hold':
        return this.confirmTokens.hold(req.params.entry);
      case 'confirm.take':
        return { entry: await this.confirmTokens.take(req.params.token) };
    }
  }

  /** The client's terminal for the CLI run as call `id`: output and questions go to the client as messages tagged with that id. */
  private clientIo(id: number, params: ServiceParams<'cli'>, conn: HostConnection, left: AbortSignal): ClientIo {
    const send = (cli: CliStream, text: string) => conn.send({ id, cli, text } satisfies CliMessage);
    const gone = () => new DeskPilotError('the client went away before answering', 'cancelled');
    const answers = this.questions.get(conn) ?? new Map<number, (line: string) => void>();
    this.questions.set(conn, answers);
    return {
      out: (text) => send('out', text),
      err: (text) => send('err', text),
      readStdin: () => Promise.reject(new DeskPilotError('standard input is not forwarded to the DeskPilot service: run the command in its own process', 'refused')),
      interactive: () => params.interactive,
      // A client that goes away (Ctrl-C at the question) ends the question, and the command with it.
      ask: (question) =>
        new Promise<string>((resolve, reject) => {
          if (left.aborted) return reject(gone());
          const onLeft = () => reject(gone());
          left.addEventListener('abort', onLeft, { once: true });
          answers.set(id, (line) => {
            answers.delete(id);
            left.removeEventListener('abort', onLeft);
            resolve(line);
          });
          send('ask', question);
        }),
      cwd: params.cwd,
      helpWidth: (stream) => params.columns?.[stream],
    };
  }
}
