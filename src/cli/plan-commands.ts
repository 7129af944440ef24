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
import { pickChoice } from '../engine/planning/pick-choice';
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
  /** Beside each sentence, the numbers behind it (tell-report.ts). */
  verbose?: boolean;
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
    let envelope = outcome.envelope;
    let batch = planned.batch;
    if (envelope.needs_clarification) {
      const reason = envelope.clarification_reason ?? 'the request is ambiguous';
      // On a terminal, a question with choices is answered in place (a number or words) and the command goes on.
      const labels = planned.choices.map((c) => c.label);
      const picked = labels.length && !args.json && io.interactive() ? await choose(reason, labels, io) : null;
      if (picked === null) {
        if (args.json) io.out(JSON.stringify({ status: 'clarification', clarification: { reason }, envelope }, null, 2) + '\n');
        io.err(labels.length && io.interactive() && !args.json ? 'cancelled: nothing was run\n' : `needs clarification: ${reason}\n`);
        await desk.remember({ at: Date.now(), text: args.text, envelope, outcome: `asked: ${reason}` });
        return EXIT.needsUser;
      }
      envelope = outcome.candidates[picked]!.envelope;
      batch = planned.choices[picked]!.batch;
    }

    // Planning prepared the batch against the snapshot it saw; it runs once, or is dropped.
    let declinedBecause: string | null = null;
    let report: ExecReport;
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
      report = !go ? (await import('../engine/prepare')).droppedReport(batch) : asks ? await desk.exec(envelope, { snapshot: context }) : await desk.run(batch);
    }
    if (declinedBecause) io.err(declinedBecause);
    tellReport(report, io, { json: args.json, verbose: args.verbose, extra: { envelope, planner: outcome.planner } });
    const outcomeText = report.results.map((r) => r.message).join('; ') || report.status;
    await desk.remember({ at: Date.now(), text: args.text, envelope, outcome: outcomeText });
    return exitCodeFor(report);
  } finally {
    await desk.close();
  }
}

const MAX_TRIES = 3;

/**
 * The question and its numbered choices on stderr; the index of the one the person picks by
 * number or words (pick-choice.ts), asked again when the answer fits none or several; null
 * when they press Enter (or input ends) or do not settle it in three tries.
 */
async function choose(question: string, labels: readonly string[], io: Io): Promise<number | null> {
  io.err(`${question}\n${labels.map((l, i) => `  ${i + 1}) ${l}\n`).join('')}`);
  for (let i = 0; i < MAX_TRIES; i++) {
    const answer = await io.ask(`Which one? A number or words (Enter: none) `);
    const p = pickChoice(answer, labels);
    if (p.kind === 'picked') return p.index;
    if (p.why === 'no answer') return null;
    io.err(`${p.why}\n`);
  }
  return null;
}

async function snapshotFrom(file: string | undefined, io: Io) {
  if (!file) return undefined;
  const loaded = await loadSnapshot(file, io.cwd);
  if (loaded.ok) return loaded.snapshot;
  io.err(loaded.errors.map((e) => `${e}\n`).join(''));
  return null;
}
