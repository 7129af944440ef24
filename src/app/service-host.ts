import { DeskPilotError, errorMessage } from '../engine/errors';
import { SERVICE_PROTOCOL_VERSION, ServiceRequest, type Hello, type ServiceEvent } from '../protocol/service';
import { formatFieldError, zodErrors } from '../protocol/validation';
import type { Desk } from './desk';
import { watchDesk } from './desk-watcher';

// The host of a desk's long-lived parts: it owns the one warm engine (through a Desk) and
// answers the socket protocol with it. The CLI and the app's windows are its clients; the
// MCP HTTP endpoint and the cross-device worker hang off the same host.

export interface HostConnection {
  send(value: unknown): void;
  onClose(fn: () => void): void;
}

export interface ServiceHostDeps {
  desk: Desk;
  hello: Omit<Hello, 'service' | 'protocol'>;
}

export class ServiceHost {
  private readonly subscribers = new Set<HostConnection>();
  private readonly served: Record<string, number> = {};
  /** Watches the desk while anyone is subscribed (a signature compared every second). */
  private stopWatching: (() => void) | null = null;

  constructor(private readonly deps: ServiceHostDeps) {}

  /** One message from a client: checked, answered on the same connection. Never throws. */
  async handle(message: unknown, conn: HostConnection): Promise<void> {
    const id = typeof message === 'object' && message !== null && typeof (message as { id?: unknown }).id === 'number' ? (message as { id: number }).id : 0;
    const parsed = ServiceRequest.safeParse(message);
    if (!parsed.success) {
      const errors = zodErrors(parsed.error, message).map(formatFieldError).join('; ');
      conn.send({ id, ok: false, error: { code: 'bad_request', message: `invalid request: ${errors}` } });
      return;
    }
    this.served[parsed.data.method] = (this.served[parsed.data.method] ?? 0) + 1;
    try {
      conn.send({ id, ok: true, result: await this.answer(parsed.data, conn) });
    } catch (e) {
      const code = e instanceof DeskPilotError ? e.code : 'failed';
      conn.send({ id, ok: false, error: { code, message: errorMessage(e) } });
    }
  }

  /** Stops watching the desk (the service is stopping). */
  close(): void {
    this.stopWatching?.();
    this.stopWatching = null;
  }

  private unsubscribe(conn: HostConnection): void {
    this.subscribers.delete(conn);
    if (this.subscribers.size === 0) this.close();
  }

  /** Tells every subscriber that the desk changed. */
  publish(event: ServiceEvent): void {
    for (const c of this.subscribers) c.send(event);
  }

  private async answer(req: ServiceRequest, conn: HostConnection): Promise<unknown> {
    const desk = this.deps.desk;
    switch (req.method) {
      case 'hello':
        return { service: 'deskpilot', protocol: SERVICE_PROTOCOL_VERSION, ...this.deps.hello };
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
        this.stopWatching ??= watchDesk(desk, (what) => this.publish({ event: 'desk.changed', data: { at: Date.now(), what } }));
        return { topics: req.params.topics };
    }
  }
}
