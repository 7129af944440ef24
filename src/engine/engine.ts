import { randomUUID } from 'node:crypto';
import type { ContextSnapshot } from '../protocol/context';
import type { ExecutionRecord } from '../protocol/record';
import type { CommandOutcome, ExecReport, ExecStatus, PlannedCommand } from '../protocol/report';
import { parseInput } from '../protocol/validation';
import { buildContext, type ContextSources, type SnapshotOptions } from './context-builder';
import { describePlanned } from './describe-plan';
import { executeOne } from './execute';
import type { HistoryStore } from './ports';
import { resolveBatch, type ResolvedCommand } from './resolve';

// The pipeline: validate → resolve against the snapshot → (confirm) → execute in order → record.
// Nothing executes unless the whole batch validated and resolved.

export interface EngineDeps extends ContextSources {
  history: HistoryStore;
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
    this.newId = deps.newId ?? randomUUID;
    this.clock = deps.clock ?? Date.now;
  }

  snapshot(opts?: SnapshotOptions): Promise<ContextSnapshot> {
    return buildContext(this.deps, opts);
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
    for (const [index, cmd] of plan.entries()) {
      const createdAt = this.clock();
      const { result, error } = await executeOne(cmd, this.deps, snap);
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
    // History is a record, not part of the action: failing to write it is reported, not fatal.
    const warnings: string[] = [];
    await this.deps.history.append(records).catch((e: unknown) => {
      warnings.push(`history was not saved: ${e instanceof Error ? e.message : String(e)}`);
    });
    return { outcomes, warnings };
  }
}
