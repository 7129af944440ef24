import type { SnapshotOptions } from '../engine/context-builder';
import { DeskPilotError } from '../engine/errors';
import type { ContextSnapshot } from '../protocol/context';
import type { Turn } from '../protocol/planning';
import { ServiceConnectionError } from '../platform/service/socket-client';
import type { Desk, PlanOptions } from './desk';

// A desk for a long-lived front end (the MCP server lives as long as the assistant that
// started it): when the warm service it used goes away — stopped, restarted after a config
// change — the next call opens the desk again, through the service if one answers by then,
// else in this process. A call that only reads is simply repeated on the new desk; one that
// acts is not, since it may have run before the service went: its caller is told to look.

const gone = (e: unknown) => e instanceof ServiceConnectionError && e.code === 'service_gone';

export class ReopeningDesk implements Desk {
  private current: Promise<Desk>;
  private last: Desk;

  constructor(
    first: Desk,
    private readonly open: () => Promise<Desk>,
  ) {
    this.last = first;
    this.current = Promise.resolve(first);
  }

  get via(): Desk['via'] {
    return this.last.via;
  }

  private reopen(): void {
    this.current = this.open().then((d) => (this.last = d));
    // Handled here so a failed reopen is no unhandled rejection; the next call meets it and tries again.
    this.current.catch(() => undefined);
  }

  private async use<T>(call: (desk: Desk) => Promise<T>, readsOnly: boolean): Promise<T> {
    let desk: Desk;
    try {
      desk = await this.current;
    } catch (e) {
      this.reopen();
      throw e;
    }
    try {
      return await call(desk);
    } catch (e) {
      if (!gone(e)) throw e;
      void desk.close().catch(() => undefined);
      this.reopen();
      if (readsOnly) return call(await this.current);
      throw new DeskPilotError(
        `${(e as Error).message}; it may or may not have run. Look (e.g. list_tabs or list_apps) before trying again: the next call reconnects, to the service if it is back, else in this process`,
        'service_gone',
      );
    }
  }

  snapshot(opts?: SnapshotOptions) {
    return this.use((d) => d.snapshot(opts), true);
  }
  health() {
    return this.use((d) => d.health(), true);
  }
  focusedApp() {
    return this.use((d) => d.focusedApp(), true);
  }
  plan(text: string, opts: PlanOptions) {
    return this.use((d) => d.plan(text, opts), true);
  }
  prepare(input: unknown, opts?: { snapshot?: ContextSnapshot }) {
    return this.use((d) => d.prepare(input, opts), true);
  }
  listPresets() {
    return this.use((d) => d.listPresets(), true);
  }
  run(batch: unknown) {
    return this.use((d) => d.run(batch), false);
  }
  exec(input: unknown, opts?: { dryRun?: boolean; snapshot?: ContextSnapshot }) {
    return this.use((d) => d.exec(input, opts), opts?.dryRun === true);
  }
  remember(turn: Turn) {
    return this.use((d) => d.remember(turn), false);
  }
  savePreset(name: string, apps?: readonly string[]) {
    return this.use((d) => d.savePreset(name, apps), false);
  }
  deletePreset(name: string) {
    return this.use((d) => d.deletePreset(name), false);
  }
  async close() {
    await (await this.current.catch(() => null))?.close();
  }
}
