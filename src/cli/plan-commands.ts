import { errorMessage } from '../engine/errors';
import type { PlanResult } from '../engine/engine';
import type { PlanOutcome } from '../engine/plan-text';
import type { DevicesContext } from '../protocol/context';
import type { PlannerMode } from '../protocol/planning';
import { itemsToConfirm, type ConfirmItem, type ConfirmPolicy } from '../protocol/prepared-batch';
import { emptyReport, type ExecReport } from '../protocol/report';
import type { ConfigFlags } from '../platform/config/load-config';
import { openDesk } from './open-desk';
import { exitCodeFor, loadSnapshot } from './exec-command';
import { EXIT } from './exit-codes';
import type { Io } from './io';
import { tellReport } from './tell-report';

export interface PlanArgs {
  text: string;
  mode: PlannerMode;
  contextFile?: string;
  explain?: boolean;
}

function explain(outcome: PlanOutcome, io: Io): void {
  const u = outcome.usage;
  io.err(
    `planner: ${outcome.planner} (${outcome.plannerDescription}), confidence ${outcome.confidence}, ` +
      `${outcome.timings.plan_ms} ms${outcome.timings.repaired ? ', after one repair round' : ''}` +
      (u ? `, tokens: ${u.prompt_tokens} prompt + ${u.completion_tokens} completion` : '') +
      '\n',
  );
}

/** Auto mode fell back to the offline answer: say why, so a stopped Ollama is noticed. */
function noteFallback(outcome: PlanOutcome, io: Io): void {
  if (outcome.note) io.err(`note: ${outcome.note}\n`);
}

/** `deskpilot plan`: the envelope on stdout, exactly the protocol's shape; nothing runs. */
export async function runPlan(flags: ConfigFlags, args: PlanArgs, io: Io): Promise<number> {
  const snapshot = await snapshotFrom(args.contextFile, io);
  if (snapshot === null) return EXIT.invalid;
  const desk = await openDesk(flags, io);
  try {
    const { outcome } = await desk.plan(args.text, { mode: args.mode, snapshot });
    io.out(JSON.stringify(outcome.envelope, null, 2) + '\n');
    if (args.explain) explain(outcome, io);
    noteFallback(outcome, io);
    return EXIT.ok;
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return EXIT.failed;
  } finally {
    await desk.close();
  }
}

export interface RunArgs extends PlanArgs {
  yes: boolean;
  /** The full report as JSON on stdout, instead of a sentence per thing done. */
  json: boolean;
  /**
   * With sync: the planner's context also holds the other devices' desks; a plan naming one of
   * them is handed to `elsewhere` (which sends it there), questions are answered seeing them all.
   */
  devices?: { context: DevicesContext; elsewhere(planned: PlanResult): Promise<number> };
}

/** The terminal asks about everything that closes something; --yes answers for it. */
export const CONFIRM_ALL: ConfirmPolicy = { close_tab: true, close_app: true, open_url: true };

export const confirmationText = (items: readonly ConfirmItem[]) => items.map((p) => `  • ${p.summary}\n`).join('');

/**
 * `deskpilot run`: plan, then execute against the same snapshot. Destructive commands need
 * a yes: typed at the terminal, or --yes; without either nothing runs and the exit code is 3.
 * Says what was done in sentences (or the full report with --json); problems go to stderr.
 */
export async function runRun(flags: ConfigFlags, args: RunArgs, io: Io): Promise<number> {
  const snapshot = await snapshotFrom(args.contextFile, io);
  if (snapshot === null) return EXIT.invalid;
  const desk = await openDesk(flags, io);
  try {
    let planned;
    let context = snapshot;
    try {
      if (args.devices && !context) context = { ...(await desk.snapshot({ summaries: args.mode !== 'local' })), devices: args.devices.context };
      planned = await desk.plan(args.text, { mode: args.mode, snapshot: context });
    } catch (e) {
      io.err(`deskpilot: ${errorMessage(e)}\n`);
      return EXIT.failed;
    }
    const { outcome } = planned;
    if (args.explain) explain(outcome, io);
    noteFallback(outcome, io);
    if (outcome.envelope.device && args.devices) return await args.devices.elsewhere(planned);
    if (outcome.envelope.needs_clarification && outcome.backendDown) {
      // Nothing to ask the user: Chrome (or the window backend) is down. Said like exec's
      // `unavailable` report, and the same exit code (1).
      const reason = outcome.envelope.clarification_reason ?? 'a backend this needs is unavailable';
      if (args.json) io.out(JSON.stringify({ ...emptyReport('unavailable', { errors: [{ path: '', message: reason }], snapshot_taken_at: planned.snapshot.taken_at }), envelope: outcome.envelope, planner: outcome.planner }, null, 2) + '\n');
      io.err(`unavailable: ${reason}\n`);
      await desk.remember({ at: Date.now(), text: args.text, envelope: outcome.envelope, outcome: `unavailable: ${reason}` });
      return EXIT.failed;
    }
    if (outcome.envelope.needs_clarification) {
      const reason = outcome.envelope.clarification_reason ?? 'the request is ambiguous';
      if (args.json) io.out(JSON.stringify({ status: 'clarification', clarification: { reason }, envelope: outcome.envelope }, null, 2) + '\n');
      io.err(`needs clarification: ${reason}\n`);
      await desk.remember({ at: Date.now(), text: args.text, envelope: outcome.envelope, outcome: `asked: ${reason}` });
      return EXIT.needsUser;
    }

    // Planning prepared the batch against the snapshot it saw; it runs once, or is dropped.
    let declinedBecause: string | null = null;
    let report: ExecReport;
    const batch = planned.batch;
    if (!batch) {
      report = emptyReport('done', { snapshot_taken_at: planned.snapshot.taken_at });
    } else {
      const list = confirmationText(itemsToConfirm(batch, CONFIRM_ALL));
      let go = true;
      if (list && !args.yes) {
        if (!io.interactive()) {
          declinedBecause = `not run: this needs confirmation — run again with --yes to allow:\n${list}`;
          go = false;
        } else {
          const answer = await io.ask(`This will:\n${list}Go ahead? [y/N] `);
          go = /^y(es)?$/i.test(answer.trim());
          if (!go) declinedBecause = 'cancelled: nothing was run\n';
        }
      }
      // The engine's code is loaded only when it is needed here: a batch the user declined.
      // A question is answered from the context it was planned with: with sync, every device's desk.
      const asks = context?.devices !== undefined && batch.commands.some((c) => c.type === 'query');
      report = !go ? (await import('../engine/prepare')).droppedReport(batch) : asks ? await desk.exec(outcome.envelope, { snapshot: context }) : await desk.run(batch);
    }
    if (declinedBecause) io.err(declinedBecause);
    tellReport(report, io, { json: args.json, extra: { envelope: outcome.envelope, planner: outcome.planner } });
    const outcomeText = report.results.map((r) => r.message).join('; ') || report.status;
    await desk.remember({ at: Date.now(), text: args.text, envelope: outcome.envelope, outcome: outcomeText });
    return exitCodeFor(report);
  } finally {
    await desk.close();
  }
}

async function snapshotFrom(file: string | undefined, io: Io) {
  if (!file) return undefined;
  const loaded = await loadSnapshot(file, io.cwd);
  if (loaded.ok) return loaded.snapshot;
  io.err(loaded.errors.map((e) => `${e}\n`).join(''));
  return null;
}
