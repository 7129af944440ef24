import type { SnapshotOptions } from '../engine/context-builder';
import type { PlanResult } from '../engine/engine';
import { DeskPilotError } from '../engine/errors';
import type { Prepared } from '../engine/prepare';
import type { ContextSnapshot } from '../protocol/context';
import type { Turn } from '../protocol/planning';
import type { Preset } from '../protocol/preset';
import type { ExecReport } from '../protocol/report';
import { ErrorCode } from '../protocol/codes';
import { SERVICE_RESULTS, type Health, type Hello, type ServiceMethod } from '../protocol/service';
import { boundTurn } from '../protocol/turn';
import { formatFieldError, zodErrors } from '../protocol/validation';
import type { ServiceClient } from '../platform/service/socket-client';
import type { Desk, PlanOptions } from './desk';

// The desk served by the warm service, reached over its socket. Every answer is checked
// against the protocol before it is believed: a service of another version, or anything
// else listening there, gives a clear error instead of a wrong result.

export class RemoteDesk implements Desk {
  readonly via = 'service' as const;

  constructor(
    private readonly client: ServiceClient,
    readonly hello: Hello,
  ) {}

  /** Checks that a service answers and speaks this protocol. */
  static async open(client: ServiceClient): Promise<RemoteDesk> {
    const hello = await call(client, 'hello', {});
    return new RemoteDesk(client, hello);
  }

  snapshot(opts: SnapshotOptions = {}): Promise<ContextSnapshot> {
    return call(this.client, 'snapshot', { summaries: opts.summaries ?? false });
  }

  health(): Promise<Health> {
    return call(this.client, 'health', {});
  }

  /** From a snapshot without summaries: the protocol has no cheaper request for it yet. */
  async focusedApp(): Promise<Pick<ContextSnapshot, 'running_apps'>> {
    return { running_apps: (await this.snapshot({ summaries: false })).running_apps };
  }

  /** False once the connection to the service is gone (it stopped): open a new desk then. */
  get connected(): boolean {
    return this.client.connected;
  }

  /**
   * A plan changes nothing, so a caller that gives up (`signal`: an MCP client cancelled) stops
   * waiting at once; the service finishes planning and the answer is dropped.
   */
  plan(text: string, opts: PlanOptions): Promise<PlanResult> {
    return unlessAborted(opts.signal, call(this.client, 'plan', { text, mode: opts.mode, ...(opts.snapshot ? { snapshot: opts.snapshot } : {}), ...(opts.frontmost !== undefined ? { frontmost: opts.frontmost } : {}) }) as Promise<PlanResult>);
  }

  prepare(input: unknown, opts: { snapshot?: ContextSnapshot } = {}): Promise<Prepared> {
    return call(this.client, 'prepare', { input, ...(opts.snapshot ? { snapshot: opts.snapshot } : {}) }) as Promise<Prepared>;
  }

  run(batch: unknown): Promise<ExecReport> {
    return call(this.client, 'run', { batch }) as Promise<ExecReport>;
  }

  exec(input: unknown, opts: { dryRun?: boolean; snapshot?: ContextSnapshot } = {}): Promise<ExecReport> {
    return call(this.client, 'exec', { input, dry_run: opts.dryRun ?? false, ...(opts.snapshot ? { snapshot: opts.snapshot } : {}) }) as Promise<ExecReport>;
  }

  async remember(turn: Turn): Promise<void> {
    // Cut to what the socket takes: a long request is still remembered, by its start.
    await call(this.client, 'remember', { turn: boundTurn(turn) });
  }

  listPresets(): Promise<Preset[]> {
    return call(this.client, 'presets.list', {});
  }

  savePreset(name: string, apps?: readonly string[]): Promise<Preset> {
    return call(this.client, 'presets.save', { name, ...(apps ? { apps: [...apps] } : {}) });
  }

  async deletePreset(name: string): Promise<boolean> {
    return (await call(this.client, 'presets.delete', { name })).deleted;
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

const call = callService;

/** `work`, or a 'cancelled' error as soon as `signal` aborts. */
function unlessAborted<T>(signal: AbortSignal | undefined, work: Promise<T>): Promise<T> {
  if (!signal) return work;
  const cancelled = () => new DeskPilotError('cancelled: the caller stopped waiting for the plan', 'cancelled');
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

type Result<M extends ServiceMethod> = import('zod').infer<(typeof SERVICE_RESULTS)[M]>;

/** One request to the service, its answer checked against the protocol. */
export async function callService<M extends ServiceMethod>(client: ServiceClient, method: M, params: unknown): Promise<Result<M>> {
  const response = await client.request(method, params);
  if (!response.ok) {
    const code = ErrorCode.safeParse(response.error?.code);
    throw new DeskPilotError(response.error?.message ?? 'the service failed without saying why', code.success ? code.data : 'failed');
  }
  const checked = SERVICE_RESULTS[method].safeParse(response.result);
  if (!checked.success) {
    const why = zodErrors(checked.error, response.result, ['result']).slice(0, 3).map(formatFieldError).join('; ');
    throw new DeskPilotError(`the DeskPilot service answered ${method} with something this version does not understand (${why}); restart the service after updating`, 'service_bad_answer');
  }
  return checked.data as Result<M>;
}
