import { errorMessage } from '../engine/errors';
import { emptyReport, type ExecReport } from '../protocol/report';
import { COMMAND_TTL_MS, ROW_MAX_AGE_TTLS, type CommandRow } from '../protocol/sync';
import type { SyncDoc } from '../platform/sync/sync-doc';
import type { TrustedSender } from '../platform/sync/trust-store';
import type { PreparedBatch } from '../protocol/prepared-batch';
import type { TakenJournal } from '../platform/sync/taken-journal';
import type { Desk } from './desk';
import type { RemoteConsent } from './sync/remote-consent';
import { runRemoteBatch } from './sync/remote-gate';

// The device worker: this desk's side of the cross-device queue, run by the host that owns
// the desk (the warm service, or the app). It
//  - publishes this device's row (name, platform, last seen) and, throttled, its desk;
//  - looks at a row only once the document has verified it against this desk's own trust list
//    (SyncDoc.readRow: signed by a device this desk trusts and has not removed, sealed with the
//    current document key); anything else addressed here is dropped and logged, never run;
//  - runs the rows addressed to this device through the same desk.run as every front end
//    (the batch is checked again against the live desk, with the same refusals), after
//    marking the row taken — on disk first, so a device killed mid-command answers it as
//    interrupted when it comes back instead of running it twice;
//  - never runs a row past its TTL (its own clock against the sender's created-at, both ways:
//    also one found after waking from sleep: it is deleted);
//  - deletes rows nobody will read any more: expired ones for this device; a row between two
//    other devices that nobody took within its TTL, once STALE_MARGIN_TTLS more have passed
//    (seed 003: stale rows are cleaned by whichever device sees them, so a target that stays
//    offline leaves none behind); any row older than ROW_MAX_AGE_TTLS × TTL.

/** How many TTLs past its TTL another device's untaken row is removed (the clocks' and the sync's margin). */
export const STALE_MARGIN_TTLS = 2;

export interface WorkerLink {
  doc: SyncDoc;
  synced(): boolean;
  onSynced(fn: () => void): void;
  onRefused(fn: (reason: string) => void): void;
  setOnline(deviceId: string | null): void;
}

export interface DeviceWorkerOptions {
  desk: Pick<Desk, 'run' | 'snapshot' | 'prepare'> & Partial<Pick<Desk, 'remember'>>;
  /** How this desk's user says yes to another device closing things here (remote-consent.ts); absent: such commands are not confirmed. */
  consent?: RemoteConsent | null;
  link: WorkerLink;
  journal: TakenJournal;
  deviceId: string;
  name: string;
  platform: string;
  version: string;
  ttlMs?: number;
  /** How often the desk is looked at for changes to publish (only changes are sent); a sender asks for a fresh one before it prepares a command. */
  publishEveryMs?: number;
  /** How often the device row's last_seen is refreshed. */
  heartbeatMs?: number;
  clock?: () => number;
  log?: (line: string) => void;
}

/** What the target's gate gets for a verified `run` row (the decrypted batch, the verified sender). */
export interface RemoteRequest {
  rowId: string;
  sender: TrustedSender;
  batch: PreparedBatch;
  /** Who asked on the sender, as the sender says: shown as who asked, never as consent. */
  askedBy: string | null;
  /** The row's TTL, by this device's clock: no later than this may it run. */
  deadline: number;
}

export class DeviceWorker {
  private readonly ttl: number;
  private readonly clock: () => number;
  private readonly log: (line: string) => void;
  private readonly running = new Set<string>();
  /** Rows dropped (and logged) once, so a hostile row is not logged on every change. */
  private readonly dropped = new Set<string>();
  private readonly cleanups: Array<() => void> = [];
  private publishing: Promise<void> | null = null;
  private publishAgain = false;
  private stopped = false;
  private started = false;

  constructor(private readonly o: DeviceWorkerOptions) {
    this.ttl = o.ttlMs ?? COMMAND_TTL_MS;
    this.clock = o.clock ?? Date.now;
    this.log = o.log ?? (() => undefined);
  }

  private get doc(): SyncDoc {
    return this.o.link.doc;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    const { link } = this.o;
    link.setOnline(this.o.deviceId);
    // Looked at once the update is fully applied: a notice in the same update (a device removed,
    // a new document key) has then been applied to the trust list.
    this.cleanups.push(this.doc.onRows((ids) => queueMicrotask(() => ids.forEach((id) => this.consider(id)))));
    link.onSynced(() => queueMicrotask(() => this.onSynced()));
    link.onRefused((reason) => {
      this.log(`sync: the server refused this device (${reason}); the worker stops — pair it again with \`deskpilot devices pair --join\``);
      void this.stop();
    });
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref?.();
      this.cleanups.push(() => clearInterval(t));
    };
    every(this.o.publishEveryMs ?? 5_000, () => this.publishSoon());
    every(this.o.heartbeatMs ?? 30_000, () => this.putDeviceRow());
    // Rows that expire while nobody touches them are cleaned up on this beat.
    every(Math.max(1_000, Math.floor(this.ttl / 2)), () => this.scanAll());
    if (link.synced()) this.onSynced();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const c of this.cleanups.splice(0)) c();
    this.o.link.setOnline(null);
    await this.publishing;
  }

  /** Publishes the desk now (coalesced with a publish already under way). */
  publishSoon(): Promise<void> {
    if (this.stopped || !this.o.link.synced()) return Promise.resolve();
    if (this.publishing) {
      this.publishAgain = true;
      return this.publishing;
    }
    this.publishing = (async () => {
      do {
        this.publishAgain = false;
        try {
          const snap = await this.o.desk.snapshot({ summaries: false });
          if (!this.stopped) this.doc.publishSnapshot(this.o.deviceId, snap);
        } catch (e) {
          this.log(`sync: the desk could not be published: ${errorMessage(e)}`);
        }
      } while (this.publishAgain && !this.stopped);
    })().finally(() => {
      this.publishing = null;
    });
    return this.publishing;
  }

  private onSynced(): void {
    if (this.stopped) return;
    this.putDeviceRow();
    this.scanAll();
    void this.publishSoon();
  }

  private putDeviceRow(): void {
    if (this.stopped || !this.o.link.synced()) return;
    if (this.doc.device(this.o.deviceId)?.removed_at !== undefined) return;
    const { deviceId: id, name, platform, version } = this.o;
    this.doc.putDevice({ v: 1, id, name, platform, version, last_seen: this.clock() });
  }

  private scanAll(): void {
    if (this.stopped || !this.o.link.synced()) return;
    for (const id of this.doc.rowIds()) this.consider(id);
  }

  /** Looks at one row: runs it, answers it, deletes it, or leaves it. Never throws. */
  private consider(id: string): void {
    if (this.stopped || this.running.has(id) || !this.o.link.synced()) return;
    const me = this.o.deviceId;
    const now = this.clock();
    const read = this.doc.readRow(id);
    if (read === null) return;
    if (!read.ok) {
      // Not a row this desk believes (unsigned, forged, from a device it does not trust, under a
      // retired key) or can read: dropped, and its sender learns it from the row going away.
      if (read.deviceId === me) {
        if (!this.dropped.has(id)) this.log(`sync: dropped command ${id} (claimed from ${read.from ?? 'nobody'}): ${read.problem}; not run`);
        this.dropped.add(id);
        this.doc.deleteRow(id);
      } else if (read.createdAt !== null && read.createdAt + ROW_MAX_AGE_TTLS * this.ttl < now) this.doc.deleteRow(id);
      return;
    }
    const row = read.row;
    // An answer to this device's own command that came after its sender stopped waiting (however late).
    if (row.from === me && row.deviceId !== me && this.recordLateAnswer(row, now)) return;
    if (row.createdAt + ROW_MAX_AGE_TTLS * this.ttl < now) {
      this.doc.deleteRow(id);
      return;
    }
    if (row.deviceId !== me) {
      // Its sender keeps its own row until the maximum age, for an answer that may still come (D4).
      if (row.from !== me && this.expiredUntaken(read, now)) {
        this.log(`sync: removed command ${id} from ${this.nameOf(row.from)} to ${this.nameOf(row.deviceId)}: nobody took it within its TTL, so it can never run`);
        this.doc.deleteRow(id);
      }
      return;
    }
    if (row.result !== undefined) return;
    if (row.taken || this.o.journal.has(id)) {
      this.answerInterrupted(row);
      return;
    }
    if (row.createdAt + this.ttl < now) {
      this.log(`sync: command ${id} from ${this.nameOf(row.from)} expired before it reached this device; not run`);
      this.doc.deleteRow(id);
      return;
    }
    const refusal = this.refusal(row, now);
    if (refusal) {
      this.log(`sync: refused command ${id}: ${refusal}`);
      if (row.action === 'run') this.doc.setResult(id, refusedReport(row, refusal));
      else this.doc.deleteRow(id);
      return;
    }
    this.running.add(id);
    void this.execute(row).finally(() => this.running.delete(id));
  }

  /**
   * A row between two other devices that can never run: not taken (no mark at all, signed or
   * not), not answered, and past its TTL by STALE_MARGIN_TTLS more TTLs by this device's clock.
   * The target runs a row only within the TTL of the sender's signed created_at by its own
   * clock, so a live row is removed only if the clocks differ by more than the margin (or a
   * taken mark took that long to arrive); created_at is covered by the sender's signature, so
   * nobody can make another device's live row look expired (an altered row is not verified,
   * and is left to the maximum age). A row that was taken is left for its sender (a late
   * answer) and, past ROW_MAX_AGE_TTLS, for anyone.
   */
  private expiredUntaken(read: Extract<ReturnType<SyncDoc['readRow']>, { ok: true }>, now: number): boolean {
    const { row } = read;
    if (row.result !== undefined || read.resultProblem !== null || row.taken !== undefined || read.takenUnverified) return false;
    return row.createdAt + (1 + STALE_MARGIN_TTLS) * this.ttl < now;
  }

  private refusal(row: CommandRow, now: number): string | null {
    // readRow verified the sender; asked again here, the trust list may have changed since.
    if (!this.doc.trustedSender(row.from)) return `sent as device ${row.from}, which this desk does not trust`;
    if (row.createdAt > now + this.ttl) return `its time (${new Date(row.createdAt).toISOString()}) is ahead of this device's clock by more than the command TTL`;
    return null;
  }

  private async execute(row: CommandRow): Promise<void> {
    try {
      await this.o.journal.add(row.id, row.createdAt);
    } catch (e) {
      this.log(`sync: command ${row.id} not run: it could not be recorded as taken (${errorMessage(e)})`);
      return;
    }
    if (!this.doc.setTaken(row.id, this.clock())) return; // withdrawn meanwhile
    this.log(`sync: running command ${row.id} (${row.action}) from ${this.nameOf(row.from)}`);
    switch (row.action) {
      case 'run': {
        // Prepared again here and gated by this desk (remote-gate.ts): the row is a request, never what runs.
        const request = this.remoteRequest(row);
        if (!request) return;
        const report = await runRemoteBatch(
          request,
          { desk: this.o.desk, consent: this.o.consent ?? null, deviceName: this.o.name, clock: this.clock, log: this.log },
        );
        this.doc.setResult(row.id, report);
        void this.publishSoon();
        return;
      }
      case 'publish':
        await this.publishSoon();
        this.doc.setResult(row.id, { taken_at: this.doc.readSnapshot(this.o.deviceId).snapshot?.taken_at ?? new Date(this.clock()).toISOString() });
        return;
    }
  }

  /**
   * A row this device sent that was answered after its sender stopped waiting (2 × TTL): the
   * answer (verified: signed by the target) is logged and remembered here, so this device's
   * history says what happened there instead of only "did not answer", and the row is deleted.
   */
  private recordLateAnswer(row: CommandRow, now: number): boolean {
    if (row.result === undefined || row.createdAt + 2 * this.ttl >= now) return false;
    this.doc.deleteRow(row.id);
    if (row.action !== 'run') return true;
    const target = this.doc.trustedSender(row.deviceId)?.name ?? row.deviceId;
    const report = row.result;
    const said = report.results.map((r) => r.message).join('; ') || report.errors.map((e) => e.message).join('; ') || report.status;
    this.log(`sync: late answer from "${target}" to command ${row.id} (sent ${new Date(row.createdAt).toISOString()}): ${report.status} — ${said}`);
    void this.o.desk.remember?.({ at: now, text: `(late answer from "${target}" to a command sent at ${new Date(row.createdAt).toISOString()})`, envelope: null, outcome: `${report.status}: ${said}` }).catch((e: unknown) => this.log(`sync: the late answer could not be recorded: ${errorMessage(e)}`));
    return true;
  }

  /** The verified sender (with whether it may act without asking), the batch and the deadline; null when the sender is no longer trusted. */
  private remoteRequest(row: Extract<CommandRow, { action: 'run' }>): RemoteRequest | null {
    const sender = this.doc.trustedSender(row.from);
    if (!sender) {
      this.doc.setResult(row.id, refusedReport(row, `sent as device ${row.from}, which this desk does not trust`));
      return null;
    }
    return { rowId: row.id, sender, batch: row.batch, askedBy: row.asked_by ?? null, deadline: row.createdAt + this.ttl };
  }

  private answerInterrupted(row: CommandRow): void {
    const message = `DeskPilot on "${this.o.name}" stopped while running this command, so it was not run again; check what it did`;
    this.log(`sync: command ${row.id} was interrupted by a restart; answered, not run again`);
    if (row.action === 'run') {
      this.doc.setResult(row.id, emptyReport('failed', { batch_id: row.batch.id, plan: row.batch.plan, errors: [{ path: '', message }] }));
    } else this.doc.deleteRow(row.id);
  }

  private nameOf(deviceId: string): string {
    const d = this.doc.trustedSender(deviceId);
    return d ? `"${d.name}"` : `device ${deviceId}`;
  }
}

function refusedReport(row: Extract<CommandRow, { action: 'run' }>, why: string): ExecReport {
  return emptyReport('invalid', { plan: row.batch.plan, errors: [{ path: 'row.from', message: `refused: ${why}` }] });
}
