import { DeskPilotError } from '../../engine/errors';
import { prepareInput, previewReport, type Prepared } from '../../engine/prepare';
import type { ContextSnapshot, DevicesContext } from '../../protocol/context';
import type { PreparedBatch } from '../../protocol/prepared-batch';
import { emptyReport, type ExecReport } from '../../protocol/report';
import { COMMAND_TTL_MS, type DeviceRow, type DeviceView } from '../../protocol/sync';
import type { SyncDoc } from '../../platform/sync/sync-doc';
import { sendCommand } from './send-command';

// The other devices of this user, as a front end uses them: list them with their published
// desks, prepare a batch against one's published snapshot (stable ids, stamped with that
// device, so only it runs it), and send it as a command row, waiting for the report. The CLI,
// the planner's device picking and the MCP server all go through here.

export interface SyncSession {
  doc: SyncDoc;
  /** This device's id: the sender of every row written here. */
  deviceId: string;
  onlineDevices(): Set<string>;
  /** Resolves when the server has every change made here. */
  flushed(timeoutMs?: number): Promise<void>;
}

export interface RemoteOptions {
  ttlMs?: number;
  clock?: () => number;
  newId?: () => string;
}

/** A Desk-like handle on one other device (what the MCP server needs to act there). */
export interface DeviceDesk {
  readonly device: DeviceRow;
  snapshot(opts?: { fresh?: boolean }): Promise<ContextSnapshot>;
  prepare(input: unknown, opts?: { snapshot?: ContextSnapshot }): Promise<Prepared>;
  run(batch: PreparedBatch, opts?: { signal?: AbortSignal; askedBy?: string | null }): Promise<ExecReport>;
  exec(input: unknown, opts?: { dryRun?: boolean; signal?: AbortSignal; askedBy?: string | null; answerIfTaken?: boolean }): Promise<ExecReport>;
}

export type FoundDevice = { ok: true; device: DeviceRow } | { ok: false; message: string };

export class RemoteDevices {
  private readonly ttl: number;
  private readonly clock: () => number;

  constructor(
    private readonly session: SyncSession,
    private readonly opts: RemoteOptions = {},
  ) {
    this.ttl = opts.ttlMs ?? COMMAND_TTL_MS;
    this.clock = opts.clock ?? Date.now;
  }

  get thisDevice(): string {
    return this.session.deviceId;
  }

  /** Every device this desk trusts (and the ones it removed, marked), with what it published; the document's own device list decides nothing. */
  list(): DeviceView[] {
    const online = this.session.onlineDevices();
    return this.session.doc.trustedDevices().map((device) => {
      const { snapshot, problem } = this.session.doc.readSnapshot(device.id);
      return { device, online: online.has(device.id) && device.removed_at === undefined, this_device: device.id === this.session.deviceId, snapshot, problem };
    });
  }

  /**
   * What the planners see of the other devices: each one's published desk under its name
   * (removed devices and those that published nothing left out), beside this desk.
   */
  devicesContext(thisName?: string): DevicesContext {
    const views = this.list();
    const here = thisName ?? views.find((v) => v.this_device)?.device.name ?? 'this computer';
    const others = views
      .filter((v) => !v.this_device && v.device.removed_at === undefined && v.snapshot !== null)
      .map((v) => ({ id: v.device.id, name: v.device.name, online: v.online, last_seen: new Date(v.device.last_seen).toISOString(), snapshot: v.snapshot! }));
    return { this_device: here, others: others.slice(0, 20) };
  }

  /** A device this desk trusts, by its name (any case) or id; removed devices are not found. */
  find(nameOrId: string): FoundDevice {
    const want = nameOrId.trim().toLowerCase();
    const live = this.session.doc.trustedDevices().filter((d) => d.removed_at === undefined);
    const exact = live.filter((d) => d.name.toLowerCase() === want || d.id === nameOrId.trim());
    const matches = exact.length ? exact : live.filter((d) => d.name.toLowerCase().startsWith(want) || d.id.startsWith(nameOrId.trim()));
    if (matches.length === 1) return { ok: true, device: matches[0]! };
    const names = live.map((d) => `"${d.name}"`).join(', ') || 'none';
    if (matches.length === 0) return { ok: false, message: `no device called "${nameOrId}" (paired devices: ${names})` };
    return { ok: false, message: `"${nameOrId}" could be ${matches.map((d) => `"${d.name}" (${d.id.slice(0, 8)})`).join(' or ')}: say which` };
  }

  desk(device: DeviceRow): DeviceDesk {
    return {
      device,
      snapshot: (o = {}) => this.snapshotOf(device, o),
      prepare: (input, o = {}) => this.prepare(device, input, o.snapshot),
      run: (batch, o = {}) => this.run(device, batch, o.signal, o.askedBy),
      exec: async (input, o = {}) => {
        const prepared = await this.prepare(device, input, await this.snapshotOf(device, { fresh: !o.dryRun }));
        if (!prepared.ok) return prepared.report;
        return o.dryRun ? previewReport(prepared.batch) : this.run(device, prepared.batch, o.signal, o.askedBy, { answerIfTaken: o.answerIfTaken });
      },
    };
  }

  /**
   * The device's published desk; with `fresh` (and the device online) it is asked to publish
   * first, so the ids a batch is prepared with are current.
   */
  async snapshotOf(device: DeviceRow, o: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<ContextSnapshot> {
    if (o.fresh && this.session.onlineDevices().has(device.id) && device.id !== this.session.deviceId) {
      await sendCommand<'publish'>(this.session.doc, { action: 'publish', deviceId: device.id, from: this.session.deviceId }, this.sendOptions(device, o.signal));
    }
    const { snapshot, problem } = this.session.doc.readSnapshot(device.id);
    if (!snapshot) throw new DeskPilotError(`"${device.name}" cannot be planned for: ${problem}`, 'unavailable');
    return snapshot;
  }

  /** Validates and resolves `input` against the device's snapshot; the batch is that device's. */
  async prepare(device: DeviceRow, input: unknown, snapshot?: ContextSnapshot): Promise<Prepared> {
    const snap = snapshot ?? (await this.snapshotOf(device));
    return prepareInput(input, async () => snap, () => ({ id: this.newId(), deviceId: device.id, now: this.clock() }));
  }

  /**
   * Re-stamps a batch the planners prepared here against the device's snapshot, so it is that
   * device's (its commands were resolved against that device's ids).
   */
  adopt(device: DeviceRow, batch: PreparedBatch): PreparedBatch {
    return { ...batch, device_id: device.id };
  }

  /** Sends the batch as a command row and waits for the device's report (or the TTL, or `signal`). */
  /**
   * `askedBy` says who asked here and what they confirmed (encrypted in the row): the target
   * shows it as who asked, never as its user's consent.
   */
  async run(device: DeviceRow, batch: PreparedBatch, signal?: AbortSignal, askedBy: string | null = null, o: { answerIfTaken?: boolean } = {}): Promise<ExecReport> {
    if (batch.device_id !== device.id) {
      return emptyReport('invalid', { errors: [{ path: 'batch.device_id', message: `this batch was prepared for device ${batch.device_id}, not "${device.name}"` }] });
    }
    return sendCommand<'run'>(this.session.doc, { action: 'run', deviceId: device.id, from: this.session.deviceId, batch, asked_by: askedBy?.slice(0, 200) ?? null }, { ...this.sendOptions(device, signal), ...o });
  }

  private sendOptions(device: DeviceRow, signal?: AbortSignal) {
    return { ttlMs: this.ttl, clock: this.clock, signal, targetName: device.name, newId: this.opts.newId };
  }

  private newId(): string {
    return (this.opts.newId ?? (() => globalThis.crypto.randomUUID()))();
  }
}
