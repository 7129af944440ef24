import type { ContextSnapshot } from '../protocol/context';
import type { ExecutionRecord } from '../protocol/record';
import type { CommandOutcome, ExecReport, ExecStatus, PlannedCommand } from '../protocol/report';
import { parseInput } from '../protocol/validation';
import { buildContext, type ContextSources, type SnapshotOptions } from './context-builder';
import { describePlanned } from './describe-plan';
import { executeOne } from './execute';
import type { HistoryStore, TurnStore } from './ports';
import { planText, type PlanOutcome, type Planners } from './plan-text';
import type { PlannerMode, Turn } from '../protocol/planning';
import type { ExecutionPorts } from './execute';
import { UndoCollector } from './undo-collector';
import { Preset } from '../protocol/preset';
import { DeskPilotError } from './errors';
import { capturePreset, missingApps } from './presets';
import { readDesk } from './window-ops';
import { resolveBatch, type ResolvedCommand } from './resolve';

// The pipeline: validate → resolve against the snapshot → (confirm) → execute in order → record.
// Nothing executes unless the whole batch validated and resolved.

export interface EngineDeps extends ContextSources, Omit<ExecutionPorts, 'windows'> {
  history: HistoryStore;
  planners: Planners;
  turns: TurnStore;
  deviceId: string;
  newId?: () => string;
  clock?: () => number;
}

export interface ExecOptions {
  dryRun?: boolean;
  /** The snapshot the planner saw; indices resolve against it. Default: a fresh one. */
  snapshot?: ContextSnapshot;
  /** Asked once with the resolved plan before anything runs; false cancels the batch. */
  confirm?: (plan: readonly PlannedCommand[]) => Promise<boolean>;
}

export class Engine {
  private readonly newId: () => string;
  private readonly clock: () => number;

  constructor(private readonly deps: EngineDeps) {
    // The Web Crypto global (Node 20, Electron, browsers): the engine stays free of node: imports.
    this.newId = deps.newId ?? (() => globalThis.crypto.randomUUID());
    this.clock = deps.clock ?? Date.now;
  }

  snapshot(opts?: SnapshotOptions): Promise<ContextSnapshot> {
    return buildContext(this.deps, opts);
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
  ): Promise<{ outcome: PlanOutcome; snapshot: ContextSnapshot; turns: Turn[] }> {
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
    return { outcome, snapshot, turns };
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

  async exec(input: unknown, opts: ExecOptions = {}): Promise<ExecReport> {
    const report = (status: ExecStatus, extra: Partial<ExecReport> = {}): ExecReport => ({
      status,
      batch_id: null,
      snapshot_taken_at: null,
      errors: [],
      clarification: null,
      plan: [],
      results: [],
      warnings: [],
      ...extra,
    });

    const parsed = parseInput(input);
    if (!parsed.ok) return report('invalid', { errors: parsed.errors });
    if (parsed.clarification) return report('clarification', { clarification: parsed.clarification });
    const { commands } = parsed.envelope;
    if (commands.length === 0) return report('done');

    const snap = opts.snapshot ?? (await this.snapshot());
    const resolution = resolveBatch(commands, snap);
    if (!resolution.ok) {
      const inputError = resolution.errors.some((e) => e.kind === 'input');
      const errors = resolution.errors.map(({ path, message }) => ({ path, message }));
      return report(inputError ? 'invalid' : 'unavailable', { errors, snapshot_taken_at: snap.taken_at });
    }

    const plan = resolution.plan.map((cmd, index) => describePlanned(cmd, index));
    const base = { snapshot_taken_at: snap.taken_at, plan };
    if (opts.dryRun) return report('dry_run', base);
    if (opts.confirm && !(await opts.confirm(plan))) return report('cancelled', base);

    const batchId = this.newId();
    const { outcomes, warnings } = await this.runPlan(resolution.plan, batchId, snap);
    const status = outcomes.every((r) => r.ok) ? 'done' : 'failed';
    return report(status, { ...base, batch_id: batchId, results: outcomes, warnings });
  }

  private async runPlan(
    plan: ResolvedCommand[],
    batchId: string,
    snap: ContextSnapshot,
  ): Promise<{ outcomes: CommandOutcome[]; warnings: string[] }> {
    const outcomes: CommandOutcome[] = [];
    const records: ExecutionRecord[] = [];
    const undo = new UndoCollector();
    for (const [index, cmd] of plan.entries()) {
      const createdAt = this.clock();
      const { result, error } = await executeOne(cmd, { ports: this.deps, snap, undo });
      records.push({
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
      });
      outcomes.push(
        result
          ? { index, type: cmd.type, ok: result.ok, message: result.message, data: result.data }
          : { index, type: cmd.type, ok: false, message: error!.message, code: error!.code },
      );
    }
    // History and undo are records, not part of the action: failing to write them is reported, not fatal.
    const warnings: string[] = [];
    const undoEntry = plan.some((c) => c.type === 'undo')
      ? null
      : undo.entry(batchId, this.clock(), plan.map((c, i) => describePlanned(c, i).summary).join(', '));
    if (undoEntry) {
      await this.deps.undo.push(undoEntry).catch((e: unknown) => {
        warnings.push(`undo information was not saved: ${e instanceof Error ? e.message : String(e)}`);
      });
    }
    await this.deps.history.append(records).catch((e: unknown) => {
      warnings.push(`history was not saved: ${e instanceof Error ? e.message : String(e)}`);
    });
    return { outcomes, warnings };
  }
}
