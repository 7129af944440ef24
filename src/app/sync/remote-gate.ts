import { errorMessage } from '../../engine/errors';
import type { ErrorCode } from '../../protocol/codes';
import { PreparedBatch, type ResolvedCommand } from '../../protocol/prepared-batch';
import { emptyReport, type ExecReport, type ExecStatus } from '../../protocol/report';
import { zodErrors } from '../../protocol/validation';
import type { Desk } from '../desk';
import type { ConsentRequest, RemoteConsent } from './remote-consent';

// What a command from another device may do here: what this desk decides, never what the row
// says. The row's batch is only a request: each command's original input is prepared again
// on this desk against its live state, with exactly the rules of a local exec (the recent
// list as listed now, the URL schemes a person may open, the DevTools guard); if this desk
// resolves anything differently from what the sender saw (another tab or window, another
// file) the whole batch is refused; and what closes things here waits for a yes from this
// desk's user unless they let that sender act without asking. Only this desk's own prepared
// batch runs — the row's resolved fields and its `confirm` list are never used.

export interface RemoteBatchRequest {
  rowId: string;
  /** Verified against this desk's trust list; actWithoutAsking is this desk's own setting for that sender. */
  sender: { id: string; name: string; actWithoutAsking: boolean };
  batch: PreparedBatch;
  /** Who asked on the sender, as the sender says: shown to this desk's user, never consent. */
  askedBy: string | null;
  /** Epoch ms: the row's TTL. A yes must come before it. */
  deadline: number;
}

export interface RemoteGateDeps {
  desk: Pick<Desk, 'prepare' | 'run'>;
  /** How this desk's user is asked; null: this host cannot ask, so nothing that needs a yes runs. */
  consent: RemoteConsent | null;
  /** This device's name, as its user knows it. */
  deviceName: string;
  clock?: () => number;
  log?: (line: string) => void;
}

export async function runRemoteBatch(req: RemoteBatchRequest, deps: RemoteGateDeps): Promise<ExecReport> {
  const clock = deps.clock ?? Date.now;
  const log = deps.log ?? (() => undefined);
  const parsed = PreparedBatch.safeParse(req.batch);
  if (!parsed.success) return emptyReport('invalid', { errors: zodErrors(parsed.error, req.batch, ['batch']) });
  const theirs = parsed.data;

  const input = { commands: theirs.commands.map((c) => c.command), needs_clarification: false, clarification_reason: null };
  let prepared: Awaited<ReturnType<Desk['prepare']>>;
  try {
    prepared = await deps.desk.prepare(input);
  } catch (e) {
    return emptyReport('unavailable', { plan: theirs.plan, errors: [{ path: '', message: `not run: this desk could not check the command (${errorMessage(e)})` }] });
  }
  if (!prepared.ok) {
    log(`sync: refused command ${req.rowId} from "${req.sender.name}": ${prepared.report.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    return prepared.report;
  }
  const ours = prepared.batch;
  if (theirs.device_id !== ours.device_id) {
    return nothingRan(ours, 'invalid', 'wrong_device', `it was prepared for device ${theirs.device_id}, not this one`);
  }
  const changed = firstDifference(theirs.commands, ours.commands);
  if (changed !== null) {
    const saw = theirs.plan[changed]?.summary ?? theirs.commands[changed]?.type ?? 'something else';
    const now = ours.plan[changed]?.summary ?? 'something else';
    const message = `the desk changed since "${req.sender.name}" looked at it: it meant to ${saw}, which here is now to ${now}; nothing was run (look again and resend)`;
    log(`sync: refused command ${req.rowId}: ${message}`);
    return nothingRan(ours, 'invalid', 'desk_changed', message, `commands[${changed}]`);
  }

  const items = itemsNeedingYes(ours);
  if (items.length > 0 && !req.sender.actWithoutAsking) {
    const answer = deps.consent
      ? await deps.consent.ask(questionFor(req, ours, items, deps.deviceName, clock()))
      : 'expired';
    if (answer === 'no') return nothingRan(ours, 'cancelled', 'declined', `declined on "${deps.deviceName}" — nothing was run`, 'confirm');
    if (answer !== 'yes' || clock() > req.deadline) {
      return nothingRan(ours, 'cancelled', 'not_confirmed', `not confirmed on "${deps.deviceName}" — nothing was run`, 'confirm');
    }
  }
  // This desk's own batch, under the sender's batch id so its report and history match what was sent.
  try {
    return await deps.desk.run({ ...ours, id: theirs.id });
  } catch (e) {
    return emptyReport('failed', { batch_id: theirs.id, plan: ours.plan, errors: [{ path: '', message: errorMessage(e) }] });
  }
}

/** What needs a yes here: what this desk's own preparation marks (closing tabs or apps), and any undo (it may close what a batch opened). */
function itemsNeedingYes(batch: PreparedBatch): ConsentRequest['items'] {
  const items = batch.confirm.map((c) => ({ index: c.index, summary: c.summary, targets: c.targets }));
  for (const p of batch.plan) {
    if (p.type === 'undo' && !items.some((i) => i.index === p.index)) items.push({ index: p.index, summary: p.summary, targets: p.targets });
  }
  return items.sort((a, b) => a.index - b.index).map(({ summary, targets }) => ({ summary, targets }));
}

function questionFor(req: RemoteBatchRequest, batch: PreparedBatch, items: ConsentRequest['items'], on: string, now: number): ConsentRequest {
  return {
    id: req.rowId,
    from: { id: req.sender.id, name: req.sender.name },
    asked_by: req.askedBy,
    on,
    items,
    plan: batch.plan.map((p) => p.summary),
    arrived_at: new Date(now).toISOString(),
    deadline: new Date(req.deadline).toISOString(),
  };
}

/** A report of a batch none of whose commands ran, each marked with `code`. */
function nothingRan(batch: PreparedBatch, status: ExecStatus, code: ErrorCode, message: string, path = ''): ExecReport {
  return emptyReport(status, {
    snapshot_taken_at: batch.snapshot_taken_at,
    plan: batch.plan,
    errors: [{ path, message }],
    results: batch.commands.map((c, index) => ({ index, type: c.type, ok: false, message, code })),
  });
}

/** The index of the first command this desk resolves to other targets than the sender did, or null. */
export function firstDifference(theirs: readonly ResolvedCommand[], ours: readonly ResolvedCommand[]): number | null {
  if (theirs.length !== ours.length) return Math.min(theirs.length, ours.length);
  const i = theirs.findIndex((c, k) => identity(c) !== identity(ours[k]!));
  return i < 0 ? null : i;
}

/**
 * What a resolved command acts on, by stable ids: a tab by its target id, a monitor by its id
 * (titles, addresses and positions change without the thing changing); everything else
 * (window ids, paths, apps, URLs, counts) as resolved. The original input is compared by
 * construction: it is the same input, prepared again.
 */
function identity(cmd: ResolvedCommand): string {
  const { command: _input, ...resolved } = cmd;
  return JSON.stringify(stable(resolved));
}

function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  if (typeof o.target_id === 'string' && typeof o.index === 'number') return `tab ${o.target_id}`;
  if (typeof o.id === 'string' && Array.isArray(o.work_area)) return `monitor ${o.id}`;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, stable(o[k])]),
  );
}
