import type { SnapshotOptions } from '../../engine/context-builder';
import type { PlanResult } from '../../engine/engine';
import { DeskPilotError } from '../../engine/errors';
import { previewReport, type Prepared } from '../../engine/prepare';
import type { ContextSnapshot } from '../../protocol/context';
import { PreparedBatch } from '../../protocol/prepared-batch';
import type { Turn } from '../../protocol/planning';
import type { Preset } from '../../protocol/preset';
import { emptyReport, type ExecReport } from '../../protocol/report';
import type { DeviceRow } from '../../protocol/sync';
import type { Health } from '../../protocol/service';
import type { Desk, PlanOptions } from '../desk';
import type { RemoteDevices } from './remote-devices';

// Another device's desk behind the Desk interface, so a front end written for this desk (the
// MCP tools, the app's launcher) acts there unchanged: snapshots are that device's published
// desk (asked to publish afresh first), batches are prepared against it and sent as one command
// row, planning runs here (this device's planners, that device's desk). Presets are saved only
// on the device itself.

export class DeviceDesk implements Desk {
  readonly via: Desk['via'];

  constructor(
    /** This device's desk: its planners and its conversation memory. */
    private readonly here: Desk,
    private readonly remote: RemoteDevices,
    readonly device: DeviceRow,
    /** Withdraws the row waiting for the device's report (the caller went away). */
    private readonly signal?: AbortSignal,
    /** A command the device took already is waited for after `signal` aborts, so its answer says what ran (send-command.ts). */
    private readonly o: { answerIfTaken?: boolean } = {},
  ) {
    this.via = here.via;
  }

  /** The published desk, fresh when the device is online (ids current for preparing against). */
  snapshot(_opts: SnapshotOptions = {}): Promise<ContextSnapshot> {
    return this.remote.snapshotOf(this.device, { fresh: true, signal: this.signal });
  }

  async health(): Promise<Health> {
    throw this.notHere('health');
  }

  async focusedApp(): Promise<Pick<ContextSnapshot, 'running_apps'>> {
    return { running_apps: (await this.snapshot()).running_apps };
  }

  async plan(text: string, opts: PlanOptions): Promise<PlanResult> {
    const snapshot = opts.snapshot ?? (await this.snapshot());
    const planned = await this.here.plan(text, { ...opts, snapshot, frontmost: null });
    return {
      ...planned,
      batch: planned.batch && this.remote.adopt(this.device, planned.batch),
      choices: planned.choices.map((c) => ({ ...c, batch: this.remote.adopt(this.device, c.batch) })),
    };
  }

  async prepare(input: unknown, opts: { snapshot?: ContextSnapshot } = {}): Promise<Prepared> {
    return this.remote.prepare(this.device, input, opts.snapshot ?? (await this.snapshot()));
  }

  async run(batch: unknown): Promise<ExecReport> {
    const parsed = PreparedBatch.safeParse(batch);
    if (!parsed.success) return emptyReport('invalid', { errors: [{ path: 'batch', message: 'not a prepared batch of this version' }] });
    return this.remote.run(this.device, parsed.data, this.signal, null, this.o);
  }

  async exec(input: unknown, opts: { dryRun?: boolean; snapshot?: ContextSnapshot } = {}): Promise<ExecReport> {
    if (opts.snapshot) {
      const prepared = await this.prepare(input, { snapshot: opts.snapshot });
      if (!prepared.ok) return prepared.report;
      return opts.dryRun ? previewReport(prepared.batch) : this.run(prepared.batch);
    }
    return this.remote.desk(this.device).exec(input, { dryRun: opts.dryRun, signal: this.signal, ...this.o });
  }

  remember(turn: Turn): Promise<void> {
    return this.here.remember({ ...turn, text: `${turn.text} (on "${this.device.name}")` });
  }

  /** Devices publish their presets' names only (in the snapshot), not the layouts. */
  async listPresets(): Promise<Preset[]> {
    throw this.notHere('listing presets with their layouts');
  }

  async savePreset(): Promise<Preset> {
    throw this.notHere('saving a preset');
  }

  async deletePreset(): Promise<boolean> {
    throw this.notHere('deleting a preset');
  }

  /** The sync session belongs to whoever opened it. */
  async close(): Promise<void> {}

  private notHere(what: string): DeskPilotError {
    return new DeskPilotError(`${what} is done on "${this.device.name}" itself, not from another device`, 'invalid_input');
  }
}
