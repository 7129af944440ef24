import type { ContextSnapshot } from '../protocol/context';
import { ConfirmKind, PreparedBatch, type ConfirmItem, type ResolvedCommand } from '../protocol/prepared-batch';
import { emptyReport, type ExecReport } from '../protocol/report';
import { parseInput, zodErrors } from '../protocol/validation';
import { describePlanned } from './describe-plan';
import { resolveBatch } from './resolve';

// Prepare: input → a PreparedBatch (validated, resolved to stable ids, described, with what
// may need a yes), or the report that says why nothing can run. Nothing here touches a backend.

export type Prepared = { ok: true; batch: PreparedBatch } | { ok: false; report: ExecReport };

export interface BatchStamp {
  id: string;
  deviceId: string;
  now: number;
}

/** A batch from commands already resolved against `snap` (the planners resolve while checking). */
export function batchFrom(commands: ResolvedCommand[], snap: ContextSnapshot, stamp: BatchStamp): PreparedBatch {
  const plan = commands.map((cmd, index) => describePlanned(cmd, index));
  const confirm: ConfirmItem[] = plan
    .filter((p) => p.destructive)
    .map((p) => ({ index: p.index, kind: confirmKind(p.type), summary: p.summary, targets: p.targets }));
  return {
    v: 1,
    id: stamp.id,
    device_id: stamp.deviceId,
    prepared_at: new Date(stamp.now).toISOString(),
    snapshot_taken_at: snap.taken_at,
    commands,
    plan,
    confirm,
  };
}

function confirmKind(type: string): ConfirmKind {
  const parsed = ConfirmKind.safeParse(type);
  // Anything else marked destructive is confirmed like closing a tab: asked about by default.
  return parsed.success ? parsed.data : 'close_tab';
}

/** Parses and resolves the exec API's input against `snap`. `snap` is only read when the input is runnable. */
export async function prepareInput(input: unknown, snapshot: () => Promise<ContextSnapshot>, stamp: () => BatchStamp): Promise<Prepared> {
  const parsed = parseInput(input);
  if (!parsed.ok) return { ok: false, report: emptyReport('invalid', { errors: parsed.errors }) };
  if (parsed.clarification) return { ok: false, report: emptyReport('clarification', { clarification: parsed.clarification }) };
  const { commands } = parsed.envelope;
  if (commands.length === 0) return { ok: false, report: emptyReport('done') };

  const snap = await snapshot();
  const resolution = resolveBatch(commands, snap);
  if (!resolution.ok) {
    // Only questions ("XTerm has 3 windows — which one?"): nothing is wrong, the caller is asked which.
    if (resolution.errors.every((e) => e.kind === 'clarify')) {
      const reason = resolution.errors.map((e) => e.message).join(' ');
      const errors = resolution.errors.map(({ path, message }) => ({ path, message }));
      const clarification = { reason, draft_types: commands.map((c) => c.type) };
      return { ok: false, report: emptyReport('clarification', { clarification, errors, snapshot_taken_at: snap.taken_at }) };
    }
    const inputError = resolution.errors.some((e) => e.kind === 'input');
    const errors = resolution.errors.map(({ path, message }) => ({ path, message }));
    return { ok: false, report: emptyReport(inputError ? 'invalid' : 'unavailable', { errors, snapshot_taken_at: snap.taken_at }) };
  }
  return { ok: true, batch: batchFrom(resolution.plan, snap, stamp()) };
}

/** A batch arriving from elsewhere (a socket, a queue row) is input: checked before it runs. */
export function checkBatch(raw: unknown, deviceId: string): { ok: true; batch: PreparedBatch } | { ok: false; report: ExecReport } {
  const parsed = PreparedBatch.safeParse(raw);
  if (!parsed.success) return { ok: false, report: emptyReport('invalid', { errors: zodErrors(parsed.error, raw, ['batch']) }) };
  if (parsed.data.device_id !== deviceId) {
    const message = `this batch was prepared for device ${parsed.data.device_id}, not this one (${deviceId}); it runs only where it was prepared`;
    return { ok: false, report: emptyReport('invalid', { errors: [{ path: 'batch.device_id', message }] }) };
  }
  return { ok: true, batch: parsed.data };
}

/** What a batch would do, without doing it (dry run). */
export const previewReport = (batch: PreparedBatch): ExecReport =>
  emptyReport('dry_run', { snapshot_taken_at: batch.snapshot_taken_at, plan: batch.plan });

/** The user said no: nothing ran. */
export const droppedReport = (batch: PreparedBatch): ExecReport =>
  emptyReport('cancelled', { snapshot_taken_at: batch.snapshot_taken_at, plan: batch.plan });
