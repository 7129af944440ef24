import type { Envelope } from '../protocol/commands';
import type { ContextSnapshot } from '../protocol/context';
import type { ExecutionRecord } from '../protocol/record';
import type { PreparedBatch } from '../protocol/prepared-batch';
import { emptyReport, type CommandOutcome, type ExecReport } from '../protocol/report';
import { buildContext, type ContextSources, type SnapshotOptions } from './context-builder';
import { deskHealth, type DeskHealth } from './health';
import { groupWindows, nameResolver } from './app-grouping';
import { describePlanned } from './describe-plan';
import { deviceTarget } from './device-target';
import { executeOne } from './execute';
import type { HistoryStore, TurnStore } from './ports';
import { planText, type PlanOutcome, type Planners } from './plan-text';
import type { PlannerMode, Turn } from '../protocol/planning';
import type { ExecutionPorts } from './execute';
import { UndoCollector } from './undo-collector';
import { BatchRecorder, type BatchUndoStore } from './batch-record';
import { BatchFront } from './batch-front';
import { Preset } from '../protocol/preset';
import { DeskPilotError } from './errors';
import { capturePreset, missingApps } from './presets';
import { readDesk } from './window-ops';
import type { ResolvedCommand } from './resolve';
import { batchFrom, checkBatch, droppedReport, prepareInput, previewReport, type BatchStamp, type Prepared } from './prepare';
import { checkAgainstDesk, type OwnEndpoint } from './desk-checks';
import { OneDeskRead } from './desk-read';

// The pipeline: prepare (validate → resolve against the snapshot → describe) → the caller
// confirms or drops → run (execute in order → record). Nothing executes unless the whole
// batch validated and resolved.

export interface EngineDeps extends ContextSources, Omit<ExecutionPorts, 'windows' | 'undo'> {
  undo: BatchUndoStore;
  history: HistoryStore;
  planners: Planners;
  turns: TurnStore;
  deviceId: string;
  newId?: () => string;
  clock?: () => number;
  /** DeskPilot's own listeners (the sync server it uses): open_url refuses them (desk-checks.ts). */
  ownEndpoints?: readonly OwnEndpoint[];
}

export interface ExecOptions {
  dryRun?: boolean;
  /** The snapshot the planner saw; indices resolve against it. Default: a fresh one. */
  snapshot?: ContextSnapshot;
}

/** What planning produced: the planners' outcome, and the batch ready to run (null for a question back). */
export interface PlanResult {
  outcome: PlanOutcome;
  snapshot: ContextSnapshot;
  turns: Turn[];
  /** Validated and resolved against `snapshot`; null when the planner asked a question. */
  batch: PreparedBatch | null;
  /** With a question back: each choice, prepared. */
  choices: Array<{ label: string; batch: PreparedBatch }>;
}

export class Engine {
  private readonly newId: () => string;
  private readonly clock: () => number;

  constructor(private readonly deps: EngineDeps) {
    // The Web Crypto global (Node 20, Electron, browsers): the engine stays free of node: imports.
    this.newId = deps.newId ?? (() => globalThis.crypto.randomUUID());
    this.clock = deps.clock ?? Date.now;
  }

  /** The desk this engine runs on; batches prepared here carry it. */
  get deviceId(): string {
    return this.deps.deviceId;
  }

  snapshot(opts?: SnapshotOptions): Promise<ContextSnapshot> {
    return buildContext(this.deps, opts);
  }

  /**
   * The focused window as a snapshot's running_apps (one app with one window, or none),
   * read without listing every tab and window: the launcher asks each time it opens.
   */
  async focusedApp(): Promise<Pick<ContextSnapshot, 'running_apps'>> {
    const windows = this.deps.windows;
    if (!windows) return { running_apps: [] };
    const [w, catalog] = await Promise.all([(await windows()).focused(), this.deps.apps.list().catch(() => [])]);
    return { running_apps: w ? groupWindows([w], nameResolver(catalog), []) : [] };
  }

  /** Whether Chrome and the window backend answer, without listing tabs and windows. */
  health(): Promise<DeskHealth> {
    return deskHealth(this.deps);
  }

  /**
   * Plans words against a snapshot (a fresh one unless given) and returns both, so the
   * caller executes against exactly the snapshot the planner saw.
   */
  async plan(
    text: string,
    opts: {
      mode: PlannerMode;
      snapshot?: ContextSnapshot;
      signal?: AbortSignal;
      /** The window the user was in before opening DeskPilot: "it" and "this window" refer to it. */
      frontmost?: { app: string; title: string } | null;
    },
  ): Promise<PlanResult> {
    // Summaries help a model tell tabs apart; the offline matcher does not read them.
    const [snapshot, turns] = await Promise.all([
      opts.snapshot ?? this.snapshot({ summaries: opts.mode !== 'local' && this.deps.planners.llm !== null }),
      this.deps.turns.recent(6).catch((): Turn[] => []),
    ]);
    if (opts.frontmost) {
      // Told to the planners as the latest turn, the way a follow-up learns what "it" is.
      turns.push({
        at: Date.now(),
        text: '(the user opened DeskPilot)',
        envelope: { commands: [{ type: 'focus_app', app_name: opts.frontmost.app }], needs_clarification: false, clarification_reason: null },
        outcome: `the user was working in ${opts.frontmost.app} ("${opts.frontmost.title}")`,
      });
    }
    const outcome = await planText(text, opts.mode, snapshot, turns, this.deps.planners, opts.signal);
    const runnable = !outcome.envelope.needs_clarification && outcome.resolved.length > 0;
    return {
      outcome,
      snapshot,
      turns,
      batch: runnable ? batchFrom(outcome.resolved, snapshot, this.stampFor(outcome.envelope, snapshot)) : null,
      choices: outcome.candidates.map((c) => ({ label: c.label, batch: batchFrom(c.resolved, snapshot, this.stampFor(c.envelope, snapshot)) })),
    };
  }

  /** Remembers what was said and what happened, for follow-ups. Never fails the caller. */
  async remember(turn: Turn): Promise<void> {
    await this.deps.turns.append(turn).catch(() => undefined);
  }

  listPresets(): Promise<Preset[]> {
    return this.deps.presets.list();
  }

  deletePreset(name: string): Promise<boolean> {
    return this.deps.presets.delete(name);
  }

  /**
   * Saves the current arrangement of the named apps (default: every visible window) as a
   * preset. Unknown app names are refused before anything is written.
   */
  async savePreset(name: string, apps?: readonly string[]): Promise<Preset> {
    const checkedName = Preset.shape.name.safeParse(name);
    if (!checkedName.success) throw new DeskPilotError(`name: ${checkedName.error.issues[0]!.message}`, 'invalid_input');
    const desk = await readDesk(this.deps);
    if (apps) {
      const missing = missingApps(desk, apps);
      if (missing.length) throw new DeskPilotError(`not running, so their layout cannot be saved: ${missing.join(', ')}`, 'app_unknown');
    }
    const preset = Preset.parse(capturePreset(name, desk, apps));
    if (preset.placements.length === 0) throw new DeskPilotError('no visible windows to save', 'nothing_to_save');
    await this.deps.presets.save(preset);
    return preset;
  }

  private stamp(): BatchStamp {
    return { id: this.newId(), deviceId: this.deps.deviceId, now: this.clock() };
  }

  /** A plan for another device is that device's batch: this engine will not run it. */
  private stampFor(envelope: Envelope, snapshot: ContextSnapshot): BatchStamp {
    const target = deviceTarget(envelope, snapshot);
    const stamp = this.stamp();
    return target.ok && target.device ? { ...stamp, deviceId: target.device.id } : stamp;
  }

  /**
   * Validates the exec API's input and resolves it against `snapshot` (default: a fresh one)
   * into a batch that can be shown, confirmed, sent elsewhere, and run — or the report saying
   * why nothing can run.
   */
  prepare(input: unknown, opts: { snapshot?: ContextSnapshot } = {}): Promise<Prepared> {
    return this.prepareWith(input, opts.snapshot);
  }

  private async prepareWith(input: unknown, given: ContextSnapshot | undefined, fresh = () => this.snapshot()): Promise<Prepared> {
    const prepared = await prepareInput(input, async () => given ?? (await fresh()), () => this.stamp());
    if (!prepared.ok) return prepared;
    const nav = await checkAgainstDesk(prepared.batch.commands, this.deps);
    if (nav.ok) return prepared;
    return { ok: false, report: emptyReport(nav.unavailable ? 'unavailable' : 'invalid', { errors: nav.errors, snapshot_taken_at: prepared.batch.snapshot_taken_at }) };
  }

  /**
   * Runs a prepared batch, checked again first (it may come from a socket or another device).
   * Commands act on the batch's stable ids; a tab or window that vanished since is reported,
   * never replaced by another. `snapshot` answers questions; default: a fresh one, if needed.
   */
  run(raw: PreparedBatch | unknown, opts: { snapshot?: ContextSnapshot } = {}): Promise<ExecReport> {
    return this.runChecked(raw, opts.snapshot, null);
  }

  /** run(), with the desk the exec's own snapshot read for the first command (desk-read.ts); null: none. */
  private async runChecked(raw: PreparedBatch | unknown, given: ContextSnapshot | undefined, deskRead: OneDeskRead | null): Promise<ExecReport> {
    const checked = checkBatch(raw, this.deps.deviceId);
    if (!checked.ok) return checked.report;
    const { batch } = checked;
    const nav = await checkAgainstDesk(batch.commands, this.deps, batch.confirm);
    if (!nav.ok) return emptyReport(nav.unavailable ? 'unavailable' : 'invalid', { errors: nav.errors, snapshot_taken_at: batch.snapshot_taken_at, plan: batch.plan });
    let snap: Promise<ContextSnapshot> | null = given ? Promise.resolve(given) : null;
    const snapshot = () => (snap ??= this.snapshot());
    const { outcomes, warnings } = await this.runPlan(batch.commands, batch.id, snapshot, deskRead);
    const status = outcomes.every((r) => r.ok) ? 'done' : 'failed';
    return emptyReport(status, { snapshot_taken_at: batch.snapshot_taken_at, plan: batch.plan, batch_id: batch.id, results: outcomes, warnings });
  }

  /** The report for a batch the user declined: nothing ran. */
  drop(batch: PreparedBatch): ExecReport {
    return droppedReport(batch);
  }

  /** The exec API without a person in the loop: prepare, then run (or only preview, with dryRun). */
  async exec(input: unknown, opts: ExecOptions = {}): Promise<ExecReport> {
    // No person between prepare and run here: the desk the fresh snapshot read serves the first command.
    const deskRead = opts.snapshot ? null : new OneDeskRead();
    const fresh = deskRead ? () => this.snapshot({ onDeskRead: (r) => deskRead.keep(r) }) : undefined;
    const prepared = await this.prepareWith(input, opts.snapshot, fresh);
    if (!prepared.ok) return prepared.report;
    if (opts.dryRun) return previewReport(prepared.batch);
    return this.runChecked(prepared.batch, opts.snapshot, deskRead);
  }

  private async runPlan(
    plan: ResolvedCommand[],
    batchId: string,
    snap: () => Promise<ContextSnapshot>,
    deskRead: OneDeskRead | null,
  ): Promise<{ outcomes: CommandOutcome[]; warnings: string[] }> {
    const outcomes: CommandOutcome[] = [];
    const undo = new UndoCollector();
    const front = new BatchFront();
    // History and undo are records, not part of the action: failing to write them is reported, not fatal.
    // They are written as the batch runs (batch-record.ts), so a process killed mid-batch leaves them behind.
    const label = plan.map((c, i) => describePlanned(c, i).summary).join(', ');
    const recorder = new BatchRecorder(this.deps, { id: batchId, at: this.clock(), label, types: plan.map((c) => c.type) }, undo);
    await recorder.begin();
    for (const [index, cmd] of plan.entries()) {
      const createdAt = this.clock();
      // Only the first command may start from the snapshot's read; after it, the desk may have changed.
      const ports = index === 0 && deskRead ? { ...this.deps, takeDeskRead: () => deskRead.take() } : this.deps;
      const { result, error } = await executeOne(cmd, { ports, snap, undo, front, turns: () => this.deps.turns.recent(6) });
      deskRead?.drop();
      const record: ExecutionRecord = {
        _v: 1,
        id: this.newId(),
        batchId,
        deviceId: this.deps.deviceId,
        type: cmd.type,
        payload: cmd.command,
        createdAt,
        finishedAt: this.clock(),
        ...(result ? { result } : {}),
        ...(error ? { error } : {}),
      };
      await recorder.ran(record, index === plan.length - 1);
      outcomes.push(
        result
          ? { index, type: cmd.type, ok: result.ok, message: result.message, data: result.data }
          : { index, type: cmd.type, ok: false, message: error!.message, code: error!.code },
      );
    }
    const warnings: string[] = [];
    const unfocused = await front.finish();
    if (unfocused) warnings.push(unfocused);
    await recorder.finish();
    return { outcomes, warnings: [...warnings, ...recorder.warnings] };
  }
}
