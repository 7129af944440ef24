import { isDirectAnswer, type AgentPlan, type AgentTool, type PageCommand } from '../../protocol/agent';
import type { Audience, NoticeCode } from '../../protocol/codes';
import type { ExecutorRequest, PlannerPage } from '../agent-ports';
import { errorMessage } from '../errors';
import type { TokenUsage } from '../ports';
import { clip } from '../words';
import { checkPlan, isBadOutput, makePlan, rawOf } from './make-plan';
import { parseExecutorAnswer } from './parse-command';
import {
  answerRepair,
  correctionInstruction,
  modelNotice,
  outcomeText,
  plannerContext,
  standingNotices,
  unusableAnswerText,
  WRAP_UP_INSTRUCTION,
} from './prompts';
import { CommandRunner, type Executed } from './run-command';
import { Secrets, pageData, type DomainPolicy } from './safety';
import { findStartTab } from './start-tab';
import { Stopped, abortable, checkStop } from './stop';
import { TargetTabs } from './target-tabs';
import type { AgentEvent, AgentNotice, AgentResult, AgentStatus, InstructionKind, RunAgentInput, StepRecord } from './types';

// The agent loop: the planner writes plain-English steps, the user
// approves them, then for each step the executor returns exactly one page command, which the loop
// checks and runs (run-command.ts), recording its output for later turns.
//
// The step rule — one successful command completes a step:
//  • each executor turn gets the current instruction (a plan step, or a user correction,
//    which always goes first) and returns exactly one command;
//  • a command that succeeds completes the instruction and the next one follows;
//  • a command that fails (a recoverable error: element gone, refused URL, the user declined …)
//    or an answer that is no command even after one repair round leaves the instruction
//    current: the executor sees what went wrong and tries again; `maxFailures` failed
//    turns in a row end the run as 'failed';
//  • `done` ends the run at any point, before the plan's end too;
//  • after the last step the executor gets up to WRAP_UP_TURNS more turns to say done;
//  • every executed command counts toward `maxSteps` ('budget' when it runs out).
// The loop never runs anything the executor did not return as a command; page text reaches
// the model only inside <page_data> wrappers, as data. What the model reads is worded in prompts.ts.
// About 400 lines on purpose: one run's state (plan, history, notices, budget, turn) belongs to
// one AgentRun; what needs none of it already lives beside it (run-command.ts, target-tabs.ts,
// start-tab.ts, make-plan.ts, prompts.ts).

export { WRAP_UP_INSTRUCTION } from './prompts';

export const AGENT_DEFAULTS = {
  maxSteps: 25,
  tabLimit: 3,
  maxFailures: 3,
  noChangeMs: 15_000,
  snapshotChars: 12_000,
  maskPii: true,
  screenshots: false,
} as const;

/** How much of the start tab's visible text the planner reads beside its snapshot. */
export const PLANNER_TEXT_CHARS = 4_000;

/** The planner's screenshot: at most this wide (CSS pixels), JPEG at this quality — enough to read a page's layout and large text. */
export const SCREENSHOT = { maxWidth: 1024, quality: 60 } as const;

/** Extra executor turns after the last plan step, to finish with done. */
export const WRAP_UP_TURNS = 3;

/** Bounds for command outputs in the executor's history: the latest few in full, older ones short. */
const OUTPUT_CHARS = 4_000;
const OLD_OUTPUT_CHARS = 400;
const FULL_HISTORY_ENTRIES = 3;

/** Whom each of the loop's notices is for: its own bookkeeping stays with the model. */
const AUDIENCE: Record<NoticeCode, Audience> = {
  tab_released: 'person',
  no_change: 'person',
  fresh_snapshot: 'model',
  answer_unusable: 'model',
  tab_unreadable: 'person',
  secret_missing: 'person',
  screenshot_skipped: 'person',
};

interface Instruction {
  kind: InstructionKind;
  /** What the executor is told. */
  text: string;
  /** The plan step's or the correction's own words. */
  step: string;
  stepIndex: number | null;
}

interface HistoryItem {
  step: string;
  command: PageCommand;
  result: Executed;
}

export function runAgent(input: RunAgentInput): Promise<AgentResult> {
  return new AgentRun(input).run();
}

class AgentRun {
  private readonly o: Required<Omit<NonNullable<RunAgentInput['options']>, 'allowDomains' | 'denyDomains' | 'secrets'>>;
  private readonly policy: DomainPolicy;
  private readonly secrets: Secrets;
  private readonly tools: AgentTool[];
  private readonly tabs: TargetTabs;
  private readonly commandRunner: CommandRunner;

  private plan: AgentPlan | null = null;
  private readonly history: HistoryItem[] = [];
  private pending: AgentNotice[] = [];
  private readonly records: StepRecord[] = [];
  private commands = 0;
  private turn = 0;
  private readonly usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };

  constructor(private readonly input: RunAgentInput) {
    const o = input.options ?? {};
    const d = AGENT_DEFAULTS;
    this.o = {
      maxSteps: Math.max(1, o.maxSteps ?? d.maxSteps),
      tabLimit: Math.max(1, o.tabLimit ?? d.tabLimit),
      maxFailures: Math.max(1, o.maxFailures ?? d.maxFailures),
      noChangeMs: o.noChangeMs ?? d.noChangeMs,
      snapshotChars: o.snapshotChars ?? d.snapshotChars,
      maskPii: o.maskPii ?? d.maskPii,
      screenshots: o.screenshots ?? d.screenshots,
    };
    this.policy = { allow: o.allowDomains, deny: o.denyDomains };
    this.secrets = new Secrets(o.secrets);
    this.tools = input.tools ?? [];
    const secrets = this.secrets;
    this.tabs = new TargetTabs({
      browser: input.browser,
      limit: this.o.tabLimit,
      snapshotChars: this.o.snapshotChars,
      maskPii: this.o.maskPii,
      policy: this.policy,
      secrets,
      unreadable: (t, error) => this.notice('tab_unreadable', `Could not read tab ${t.n} (${secrets.redact(t.url)}): ${secrets.redact(error)}`),
    });
    this.commandRunner = new CommandRunner({
      browser: input.browser,
      tabs: this.tabs,
      tools: this.tools,
      secrets,
      policy: this.policy,
      tabLimit: this.o.tabLimit,
      noChangeMs: this.o.noChangeMs,
      maskPii: this.o.maskPii,
      confirm: (question) => abortable(input.signal, input.confirm(question)),
      notice: (code, text) => this.notice(code, text),
    });
  }

  async run(): Promise<AgentResult> {
    const { signal } = this.input;
    try {
      checkStop(signal);
      const start = await this.startOnTab();
      if (start && 'end' in start) return this.finish(start.end.status, start.end.reason);
      const planned = await makePlan({
        goal: this.input.goal,
        context: this.planContext(start?.page !== undefined),
        ...(start?.page ? { page: start.page } : {}),
        models: this.input.models,
        secrets: this.secrets,
        signal,
        addUsage: (u) => this.addUsage(u),
      });
      if ('failed' in planned) return this.finish('failed', planned.failed);
      this.plan = planned.plan;
      this.emit({ type: 'plan', plan: planned.plan, edited: false, repaired: planned.repaired });
      // A question about the page shown: the planner's message is the answer, and nothing runs.
      if (isDirectAnswer(planned.plan)) return this.finish('done', null, this.secrets.redact(planned.plan.message));

      const decision = await abortable(signal, this.input.approve(planned.plan));
      if (!decision.approved) return this.finish('cancelled', 'the plan was not approved, so nothing was done');
      if (decision.plan) {
        const edited = checkPlan(decision.plan);
        if (!edited.plan) return this.finish('failed', `the edited plan is invalid, so nothing was done: ${edited.errors.join('; ')}`);
        this.plan = edited.plan;
        this.emit({ type: 'plan', plan: edited.plan, edited: true, repaired: false });
      }
      return await this.loop(this.plan);
    } catch (e) {
      if (e instanceof Stopped || signal?.aborted) return this.finish('stopped', 'stopped by the user');
      return this.finish('failed', errorMessage(e));
    }
  }

  /**
   * The person's tab the run starts on (start-tab.ts), when asked for: made target tab 1 and read for the
   * planner (snapshot, and screenshot when on). Null without a start tab; `end` when the run
   * cannot start there (no such tab, or its domain is refused).
   */
  private async startOnTab(): Promise<{ page?: PlannerPage } | { end: { status: AgentStatus; reason: string } } | null> {
    const wanted = this.input.startTab;
    if (!wanted) return null;
    const found = await abortable(this.input.signal, findStartTab(this.input.browser, wanted, this.secrets));
    if ('failed' in found) return { end: { status: 'failed', reason: found.failed } };

    const { target } = this.tabs.add(found.targetId, '', true);
    const refused = await this.tabs.refresh();
    if (refused) return { end: { status: 'refused', reason: refused } };
    const shown = this.tabs.forModel()[0];
    if (!shown || !target.snapshot) return {}; // unreadable: the notice says so, and the planner plans without the page
    const text = await this.pageText(target.targetId, target.n);
    const image = await this.screenshotFor(target.targetId);
    return { page: { text: text ? `${shown.text}\n${text}` : shown.text, ...(image ? { image } : {}) } };
  }

  /**
   * The start tab's visible text (read_page, bounded): the snapshot lists what can be acted on,
   * and a question about the page needs what it says. Framed as page data like any read_page
   * output; null when it cannot be read (the planner still has the snapshot).
   */
  private async pageText(targetId: string, n: number): Promise<string | null> {
    try {
      const read = await abortable(
        this.input.signal,
        this.input.browser.perform(targetId, { action: 'read_page', max_chars: PLANNER_TEXT_CHARS }, { noChangeMs: this.o.noChangeMs, maskPii: this.o.maskPii }),
      );
      if (!read.ok || !read.output) return null;
      return pageData({ tab: n, source: 'read_page' }, this.secrets.redact(clip(read.output, PLANNER_TEXT_CHARS)));
    } catch (e) {
      if (e instanceof Stopped) throw e;
      return null;
    }
  }

  /** The start tab's screenshot, when screenshots are on and no secret is set for the run. */
  private async screenshotFor(targetId: string): Promise<PlannerPage['image'] | null> {
    if (!this.o.screenshots) return null;
    // A picture cannot be redacted, and no check of the page's text can prove a secret is not
    // on screen (a field's value, a canvas, an image): with secrets set, the planner gets text only.
    if (this.secrets.names().length > 0) {
      this.personNotice('screenshot_skipped', 'No screenshot was sent to the planner: secrets are set for agent mode, and a picture cannot hide one.');
      return null;
    }
    try {
      return await abortable(this.input.signal, this.input.browser.screenshot(targetId, SCREENSHOT));
    } catch (e) {
      if (e instanceof Stopped) throw e;
      this.personNotice('screenshot_skipped', `No screenshot was sent to the planner: ${this.secrets.redact(errorMessage(e))}`);
      return null;
    }
  }

  private planContext(pageShown: boolean): string {
    const start = this.input.startTab ? this.tabs.current : null;
    return plannerContext({
      startTab: start ? { n: start.n, shown: pageShown } : null,
      tools: this.tools,
      tabLimit: this.o.tabLimit,
      maxSteps: this.o.maxSteps,
      secretNames: this.secrets.names(),
      allowDomains: this.policy.allow,
      denyDomains: this.policy.deny,
    });
  }

  // ---- the loop ----

  private async loop(plan: AgentPlan): Promise<AgentResult> {
    let stepIndex = 0;
    let wrapUps = 0;
    let failures = 0;
    let attempt = 0;
    let lastInstruction = '';
    const corrections: string[] = [];

    for (;;) {
      checkStop(this.input.signal);
      const correction = this.input.corrections?.();
      if (correction && correction.trim()) corrections.push(correction.trim());

      const instruction: Instruction | null = corrections.length
        ? { kind: 'correction', text: correctionInstruction(corrections[0]!), step: corrections[0]!, stepIndex: null }
        : stepIndex < plan.steps.length
          ? { kind: 'plan', text: plan.steps[stepIndex]!, step: plan.steps[stepIndex]!, stepIndex }
          : wrapUps < WRAP_UP_TURNS
            ? { kind: 'wrap-up', text: WRAP_UP_INSTRUCTION, step: WRAP_UP_INSTRUCTION, stepIndex: null }
            : null;
      if (!instruction) {
        return this.finish('failed', `the plan's steps ran, but the executor did not finish with done in ${WRAP_UP_TURNS} more turns`);
      }
      if (this.commands >= this.o.maxSteps) {
        return this.finish('budget', `the step budget (${this.o.maxSteps} commands) ran out before the goal was reached`);
      }
      const key = `${instruction.kind}:${instruction.stepIndex}:${instruction.text}`;
      attempt = key === lastInstruction ? attempt + 1 : 1;
      lastInstruction = key;

      this.turn++;
      const turn = this.turn;
      const { kind, stepIndex: index, text, step } = instruction;
      this.emit({ type: 'step-start', turn, kind, stepIndex: index, instruction: text, step, attempt });
      const answer = await this.ask(instruction, stepIndex);
      if (instruction.kind === 'wrap-up') wrapUps++;

      if (!answer.ok) {
        const message = unusableAnswerText(answer.error);
        this.record(turn, instruction, null, { ok: false, code: 'llm_bad_output', message, tab: null, intoPassword: false });
        this.notice('answer_unusable', message);
        if (++failures >= this.o.maxFailures) {
          return this.finish('failed', `${failures} failed turns in a row; the last: the executor's answer was no valid command (${answer.error})`);
        }
        continue;
      }

      const command = answer.command;
      this.commands++;
      this.emit({ type: 'command', turn, command });
      const result = await this.commandRunner.run(command);
      this.record(turn, instruction, command, result);
      this.history.push({ step: instruction.text, command, result });
      if (result.end) return this.finish(result.end.status, result.end.reason, result.end.answer ?? null);
      checkStop(this.input.signal);

      if (result.ok) {
        failures = 0;
        if (instruction.kind === 'correction') corrections.shift();
        else if (instruction.kind === 'plan') stepIndex++;
      } else if (++failures >= this.o.maxFailures) {
        return this.finish('failed', `${failures} failed turns in a row; the last: ${clip(result.message, 300)}`);
      }
    }
  }

  /** One executor answer → one command, with one repair round carrying the exact error. */
  private async ask(instruction: Instruction, stepIndex: number): Promise<{ ok: true; command: PageCommand } | { ok: false; error: string }> {
    const notices = this.pending.map(modelNotice);
    this.pending = [];
    const first = await this.callExecutor(instruction, stepIndex, notices);
    const parsed = parseExecutorAnswer(first);
    if (parsed.ok) return parsed;
    const second = await this.callExecutor(instruction, stepIndex, [...notices, answerRepair(parsed.error, first)]);
    return parseExecutorAnswer(second);
  }

  private async callExecutor(instruction: Instruction, stepIndex: number, notices: string[]): Promise<string> {
    const plan = this.plan!;
    const { signal } = this.input;
    const req: ExecutorRequest = {
      goal: this.input.goal,
      ...(signal ? { signal } : {}),
      step: instruction.text,
      stepIndex: instruction.kind === 'wrap-up' ? plan.steps.length : (instruction.stepIndex ?? stepIndex),
      plan,
      snapshots: this.tabs.forModel(),
      history: this.history.map((h, i) => ({
        step: h.step,
        command: h.command,
        output: outcomeText(h.result, i >= this.history.length - FULL_HISTORY_ENTRIES ? OUTPUT_CHARS : OLD_OUTPUT_CHARS),
      })),
      notices: [...standingNotices(this.tabs.list(), this.secrets.names()), ...notices],
      tools: this.tools.map((t) => ({ name: t.name, url: t.url })),
    };
    try {
      // The one place every request to the executor passes: whatever a page, an error or an
      // earlier output put into it, no secret (in any form secret-redaction.ts knows) gets through.
      const answer = await abortable(signal, this.input.models.next(this.secrets.redactAll(req)));
      this.addUsage(answer.usage);
      return answer.raw;
    } catch (e) {
      // An answer the model layer could not read is an invalid answer, not a broken run.
      if (isBadOutput(e) && !signal?.aborted) return rawOf(e);
      throw e;
    }
  }

  // ---- bookkeeping ----

  private record(turn: number, instruction: Instruction, command: PageCommand | null, e: Omit<Executed, 'end'>): void {
    const output = outcomeText(e, OUTPUT_CHARS);
    const { ok, code, message, tab, intoPassword } = e;
    this.records.push({ turn, kind: instruction.kind, stepIndex: instruction.stepIndex, instruction: instruction.text, command, ok, code, output, tab });
    this.emit({ type: 'output', turn, command, ok, code, message, ...(e.data ? { data: e.data.body } : {}), output, intoPassword });
  }

  private notice(code: NoticeCode, text: string): void {
    const n: AgentNotice = { code, audience: AUDIENCE[code], text };
    this.pending.push(n);
    this.emit({ type: 'notice', ...n });
  }

  /** A notice for the person only: the executor has no use for it. */
  private personNotice(code: NoticeCode, text: string): void {
    this.emit({ type: 'notice', code, audience: 'person', text });
  }

  private finish(status: AgentStatus, reason: string | null, answer: string | null = null): AgentResult {
    if (status === 'done') this.emit({ type: 'done', answer: answer ?? '' });
    else if (status === 'failed') this.emit({ type: 'error', message: reason ?? 'the run failed' });
    else this.emit({ type: 'stopped', status, reason: reason ?? status });
    return {
      status,
      answer,
      steps: [...this.records],
      plan: this.plan,
      reason,
      commands: this.commands,
      usage: { ...this.usage },
    };
  }

  private emit(e: AgentEvent): void {
    try {
      this.input.onEvent?.(e);
    } catch {
      // A broken progress display must not break the run.
    }
  }

  private addUsage(u?: TokenUsage): void {
    if (!u) return;
    this.usage.prompt_tokens += u.prompt_tokens;
    this.usage.completion_tokens += u.completion_tokens;
  }
}
