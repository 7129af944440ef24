import { AgentPlan, type AgentTool, type PageCommand } from '../../protocol/agent';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import type { AgentBrowser, ExecutorRequest, InTabCommand, PageSnapshot } from '../agent-ports';
import { errorMessage } from '../errors';
import { normalizeUrl } from '../normalize-url';
import type { TokenUsage } from '../ports';
import { parseExecutorAnswer } from './parse-command';
import { Secrets, domainProblem, hostOf, pageData, placeholder, type DomainPolicy } from './safety';
import type { AgentEvent, AgentResult, AgentStatus, InstructionKind, RunAgentInput, StepRecord } from './types';

// The agent loop (issue 6; shared/seeds/001 and 002): the planner writes plain-English steps,
// the user approves them, then for each step the executor returns exactly one page command,
// which the loop checks and runs, recording its output for later turns.
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
// the model only inside <page_data> wrappers, as data.

export const AGENT_DEFAULTS = {
  maxSteps: 25,
  tabLimit: 3,
  maxFailures: 3,
  noChangeMs: 15_000,
  snapshotChars: 12_000,
  maskPii: true,
} as const;

/** Extra executor turns after the last plan step, to finish with done. */
export const WRAP_UP_TURNS = 3;
export const WRAP_UP_INSTRUCTION =
  'All planned steps are carried out. If the goal is reached, finish with done and the answer for the user, taken from the outputs above. If not, give the one command still needed.';

/** Bounds for command outputs in the executor's history: the latest few in full, older ones short. */
const OUTPUT_CHARS = 4_000;
const OLD_OUTPUT_CHARS = 400;
const FULL_HISTORY_ENTRIES = 3;

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);
const excerpt = (s: string) => JSON.stringify(clip(s.replace(/\s+/g, ' ').trim(), 300));
const isEnter = (key: string) => /(^|\+)(enter|return)$/i.test(key.trim());
/** Actions after which no DOM change is worth telling the model (the seed's 15 s rule). */
const EXPECTS_CHANGE = new Set<PageCommand['action']>(['click', 'select', 'press_key', 'navigate']);

class Stopped extends Error {
  constructor() {
    super('stopped by the user');
  }
}

interface Target {
  /** The number the model uses (switch_tab / close_tab); never reused within a run. */
  n: number;
  targetId: string;
  url: string;
  snapshot: PageSnapshot | null;
  /** The element last typed into or clicked: where a bare Enter goes. */
  lastFocused: number | null;
}

interface Instruction {
  kind: InstructionKind;
  text: string;
  stepIndex: number | null;
}

interface Executed {
  ok: boolean;
  /** What the model is told: the message, and page data (read_page text) kept apart for clipping. */
  message: string;
  data?: { attrs: Record<string, string | number>; body: string };
  tab: number | null;
  /** Set when the run ends with this command (done, or a refused domain after navigation). */
  end?: Ending;
}

interface Ending {
  status: AgentStatus;
  reason: string | null;
  answer?: string;
}

interface HistoryItem {
  step: string;
  command: PageCommand;
  message: string;
  data?: Executed['data'];
}

const render = (e: Pick<Executed, 'message' | 'data'>, max: number) =>
  e.data ? `${clip(e.message, max)}\n${pageData(e.data.attrs, clip(e.data.body, max))}` : clip(e.message, max);

export function runAgent(input: RunAgentInput): Promise<AgentResult> {
  return new AgentRun(input).run();
}

class AgentRun {
  private readonly o: Required<Omit<NonNullable<RunAgentInput['options']>, 'allowDomains' | 'denyDomains' | 'secrets'>>;
  private readonly policy: DomainPolicy;
  private readonly secrets: Secrets;
  private readonly tools: AgentTool[];
  private readonly browser: AgentBrowser;

  private plan: AgentPlan | null = null;
  private readonly targets: Target[] = [];
  private current: Target | null = null;
  private nextTab = 1;
  private readonly history: HistoryItem[] = [];
  private pending: string[] = [];
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
    };
    this.policy = { allow: o.allowDomains, deny: o.denyDomains };
    this.secrets = new Secrets(o.secrets);
    this.tools = input.tools ?? [];
    this.browser = input.browser;
  }

  async run(): Promise<AgentResult> {
    try {
      this.checkStop();
      const planned = await this.makePlan();
      if ('status' in planned) return planned;
      this.plan = planned.plan;
      this.emit({ type: 'plan', plan: planned.plan, edited: false, repaired: planned.repaired });

      const decision = await this.abortable(this.input.approve(planned.plan));
      if (!decision.approved) return this.finish('cancelled', 'the plan was not approved, so nothing was done');
      if (decision.plan) {
        const edited = checkPlan(decision.plan);
        if (!edited.plan) return this.finish('failed', `the edited plan is invalid, so nothing was done: ${edited.errors.join('; ')}`);
        this.plan = edited.plan;
        this.emit({ type: 'plan', plan: edited.plan, edited: true, repaired: false });
      }
      return await this.loop(this.plan);
    } catch (e) {
      if (e instanceof Stopped || this.input.signal?.aborted) return this.finish('stopped', 'stopped by the user');
      return this.finish('failed', errorMessage(e));
    }
  }

  // ---- planning ----

  private async makePlan(): Promise<{ plan: AgentPlan; repaired: boolean } | AgentResult> {
    const { goal, signal, models } = this.input;
    const context = this.planContext();
    let checked: { plan: AgentPlan | null; errors: string[] };
    let previous: string;
    try {
      const first = await this.abortable(models.plan(this.secrets.redactAll({ goal, context, signal })));
      this.addUsage(first.usage);
      checked = checkPlan(first.plan);
      previous = first.raw;
    } catch (e) {
      // Text that is no JSON at all deserves the same repair round as JSON of the wrong shape.
      if (!isBadOutput(e)) throw e;
      checked = { plan: null, errors: [errorMessage(e)] };
      previous = (e as { raw?: string }).raw ?? '';
    }
    if (checked.plan) return { plan: checked.plan, repaired: false };

    const repair =
      `\n\nYour previous answer was not a valid plan:\n${checked.errors.map((e) => `- ${e}`).join('\n')}\n` +
      `Your previous answer: ${excerpt(previous)}\nAnswer again with one JSON object {"steps": [...], "message": "..."}.`;
    let second;
    try {
      second = await this.abortable(models.plan(this.secrets.redactAll({ goal, context: context + repair, signal })));
    } catch (e) {
      if (e instanceof Stopped || signal?.aborted) throw e;
      return this.finish('failed', `the planner's answer was invalid (${checked.errors.join('; ')}) and the repair request failed: ${errorMessage(e)}`);
    }
    this.addUsage(second.usage);
    const again = checkPlan(second.plan);
    if (!again.plan) return this.finish('failed', `the planner's answer was invalid twice, so nothing was done: ${again.errors.join('; ')}`);
    return { plan: again.plan, repaired: true };
  }

  private planContext(): string {
    const lines = [
      this.tools.length
        ? `Saved tools (open_tool by name): ${this.tools.map((t) => `"${t.name}" → ${t.url}`).join(', ')}`
        : 'Saved tools: none (open pages with open_tab and a URL).',
      `Tab limit: ${this.o.tabLimit} target tabs; opening another releases the oldest.`,
      `Budget: at most ${this.o.maxSteps} commands in all.`,
      'No tab is open yet: the first step must open a page (open_tab or open_tool).',
    ];
    const names = this.secrets.names();
    if (names.length) lines.push(`Secrets the executor can type by placeholder (values are never shown): ${names.map(placeholder).join(', ')}`);
    if (this.policy.allow?.length) lines.push(`Only these domains may be visited: ${this.policy.allow.join(', ')}`);
    if (this.policy.deny?.length) lines.push(`Never visit these domains: ${this.policy.deny.join(', ')}`);
    return lines.join('\n');
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
      this.checkStop();
      const correction = this.input.corrections?.();
      if (correction && correction.trim()) corrections.push(correction.trim());

      const instruction: Instruction | null = corrections.length
        ? { kind: 'correction', text: `User correction: ${corrections[0]}`, stepIndex: null }
        : stepIndex < plan.steps.length
          ? { kind: 'plan', text: plan.steps[stepIndex]!, stepIndex }
          : wrapUps < WRAP_UP_TURNS
            ? { kind: 'wrap-up', text: WRAP_UP_INSTRUCTION, stepIndex: null }
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
      this.emit({ type: 'step-start', turn, kind: instruction.kind, stepIndex: instruction.stepIndex, instruction: instruction.text, attempt });
      const answer = await this.ask(instruction, stepIndex);
      if (instruction.kind === 'wrap-up') wrapUps++;

      if (!answer.ok) {
        const message = `System Error: Your answer could not be used as a command: ${answer.error}`;
        this.record(turn, instruction, null, { ok: false, message, tab: null });
        this.notice(message);
        if (++failures >= this.o.maxFailures) {
          return this.finish('failed', `${failures} failed turns in a row; the last: the executor's answer was no valid command (${answer.error})`);
        }
        continue;
      }

      const command = answer.command;
      this.commands++;
      this.emit({ type: 'command', turn, command });
      const result = await this.execute(command);
      this.record(turn, instruction, command, result);
      this.history.push({ step: instruction.text, command, message: result.message, ...(result.data ? { data: result.data } : {}) });
      if (result.end) return this.finish(result.end.status, result.end.reason, result.end.answer ?? null);
      this.checkStop();

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
    const notices = this.pending;
    this.pending = [];
    const first = await this.callExecutor(instruction, stepIndex, notices);
    const parsed = parseExecutorAnswer(first);
    if (parsed.ok) return parsed;
    const repair =
      `System Error: Your previous answer could not be used: ${parsed.error}. Your previous answer was: ${excerpt(first)}. ` +
      'Reply with exactly one command for the same instruction.';
    const second = await this.callExecutor(instruction, stepIndex, [...notices, repair]);
    return parseExecutorAnswer(second);
  }

  private async callExecutor(instruction: Instruction, stepIndex: number, notices: string[]): Promise<string> {
    const plan = this.plan!;
    const req: ExecutorRequest = {
      goal: this.input.goal,
      ...(this.input.signal ? { signal: this.input.signal } : {}),
      step: instruction.text,
      stepIndex: instruction.kind === 'wrap-up' ? plan.steps.length : (instruction.stepIndex ?? stepIndex),
      plan,
      snapshots: this.modelSnapshots(),
      history: this.history.map((h, i) => ({
        step: h.step,
        command: h.command,
        output: render(h, i >= this.history.length - FULL_HISTORY_ENTRIES ? OUTPUT_CHARS : OLD_OUTPUT_CHARS),
      })),
      notices: [...this.standingNotices(), ...notices],
      tools: this.tools.map((t) => ({ name: t.name, url: t.url })),
    };
    try {
      // The one place every request to the executor passes: whatever a page, an error or an
      // earlier output put into it, no secret (in any form secret-redaction.ts knows) gets through.
      const answer = await this.abortable(this.input.models.next(this.secrets.redactAll(req)));
      this.addUsage(answer.usage);
      return answer.raw;
    } catch (e) {
      // An answer the model layer could not read is an invalid answer, not a broken run.
      if (isBadOutput(e) && !this.input.signal?.aborted) return (e as { raw?: string }).raw ?? '';
      throw e;
    }
  }

  /** The target tabs' latest snapshots, current first, redacted and wrapped as page data. */
  private modelSnapshots(): PageSnapshot[] {
    const ordered = this.current ? [this.current, ...this.targets.filter((t) => t !== this.current)] : [...this.targets];
    const out: PageSnapshot[] = [];
    for (const t of ordered) {
      if (!t.snapshot) continue;
      const s = t.snapshot;
      const url = this.secrets.redact(s.url);
      const title = this.secrets.redact(s.title);
      const text = pageData({ tab: t.n, current: t === this.current ? 'yes' : 'no', url, title }, this.secrets.redact(s.text));
      out.push({ ...s, url, title, text });
    }
    return out;
  }

  private standingNotices(): string[] {
    const out: string[] = [];
    if (this.targets.length === 0) out.push('System: No tab is open yet; open one with open_tab or open_tool.');
    else out.push(`System: ${this.tabList()}`);
    const names = this.secrets.names();
    if (names.length) out.push(`System: Secrets you can type by placeholder (you never see the values): ${names.map(placeholder).join(', ')}`);
    return out;
  }

  private tabList(): string {
    if (this.targets.length === 0) return 'No target tabs are open.';
    return `Target tabs: ${this.targets.map((t) => `${t.n}${t === this.current ? ' (current)' : ''} ${this.secrets.redact(t.url)}`).join('; ')}.`;
  }

  // ---- executing one command ----

  private async execute(cmd: PageCommand): Promise<Executed> {
    switch (cmd.action) {
      case 'done': {
        const answer = this.secrets.redact(cmd.answer);
        return { ok: true, message: 'Done.', tab: null, end: { status: 'done', reason: null, answer } };
      }
      case 'open_tab':
        return this.open(cmd.url, null);
      case 'open_tool': {
        const wanted = cmd.name.trim().toLowerCase();
        const tool = this.tools.find((t) => t.name.trim().toLowerCase() === wanted);
        if (!tool) {
          const names = this.tools.map((t) => `"${t.name}"`).join(', ');
          return this.error(`Tool "${cmd.name}" not found. Available tools: ${names || 'none'}`);
        }
        return this.open(tool.url, tool.name);
      }
      case 'switch_tab': {
        const t = this.targets.find((x) => x.n === cmd.tab);
        if (!t) return this.error(`Tab ${cmd.tab} is not a target tab. ${this.tabList()}`);
        this.current = t;
        const end = await this.refresh();
        return { ok: true, message: `Switched to tab ${t.n} (${this.secrets.redact(t.url)}).`, tab: t.n, ...(end ? { end } : {}) };
      }
      case 'close_tab': {
        const t = this.targets.find((x) => x.n === cmd.tab);
        if (!t) return this.error(`Tab ${cmd.tab} is not a target tab. ${this.tabList()}`);
        try {
          await this.browser.closeTab(t.targetId);
        } catch (e) {
          return this.error(`Could not close tab ${t.n}: ${errorMessage(e)}`, t.n);
        }
        this.targets.splice(this.targets.indexOf(t), 1);
        if (this.current === t) this.current = this.targets.at(-1) ?? null;
        const end = await this.refresh();
        return { ok: true, message: `Closed tab ${t.n} (${this.secrets.redact(t.url)}). ${this.tabList()}`, tab: t.n, ...(end ? { end } : {}) };
      }
      default:
        return this.inTab(cmd);
    }
  }

  private error(message: string, tab: number | null = null): Executed {
    return { ok: false, message: `System Error: ${this.secrets.redact(message)}`, tab };
  }

  private async open(url: string, toolName: string | null): Promise<Executed> {
    const norm = normalizeUrl(url);
    if (!norm.ok) return this.error(`Failed to open URL "${url}": it ${norm.reason}.`);
    const problem = domainProblem(norm.url, this.policy);
    if (problem) return this.error(`Refused to open "${norm.url}": ${problem}. Choose another site.`);
    let opened: { targetId: string };
    try {
      opened = await this.browser.openTab(norm.url);
    } catch (e) {
      return this.error(`Failed to open URL "${norm.url}". ${errorMessage(e)}`);
    }
    const t: Target = { n: this.nextTab++, targetId: opened.targetId, url: norm.url, snapshot: null, lastFocused: null };
    this.targets.push(t);
    this.current = t;
    // The seed's tab limit: the oldest target tab is released (left open for the user, no longer a target).
    while (this.targets.length > this.o.tabLimit) {
      const oldest = this.targets.shift()!;
      this.notice(`System: Tab limit (${this.o.tabLimit}) reached. Released tab: ${this.secrets.redact(oldest.url)}`);
    }
    const end = await this.refresh();
    const via = toolName ? ` (tool "${toolName}")` : '';
    return { ok: true, message: `Opened tab ${t.n}${via}: ${this.secrets.redact(t.url)}`, tab: t.n, ...(end ? { end } : {}) };
  }

  private async inTab(cmd: InTabCommand): Promise<Executed> {
    const t = this.current;
    if (!t) return this.error('No tab is open yet: open one with open_tab or open_tool first.');

    let real: InTabCommand = cmd;
    if (cmd.action === 'navigate' && typeof cmd.to === 'object') {
      const norm = normalizeUrl(cmd.to.url);
      if (!norm.ok) return this.error(`Failed to open URL "${cmd.to.url}": it ${norm.reason}.`, t.n);
      const problem = domainProblem(norm.url, this.policy);
      if (problem) return this.error(`Refused to navigate to "${norm.url}": ${problem}. Choose another site.`, t.n);
      real = { ...cmd, to: { url: norm.url } };
    }

    // Secrets are put in here, for the browser only; the model's command keeps the placeholders.
    if (cmd.action === 'type' && this.secrets.uses(cmd.value)) {
      const filled = this.secrets.substitute(cmd.value);
      if (!filled.ok) return this.error(filled.error, t.n);
      real = { ...cmd, value: filled.text };
    }

    const gate = await this.gate(t, cmd);
    if (gate) {
      if (gate.notFound) {
        const end = await this.refresh();
        if (end) return { ...this.error(gate.message, t.n), end };
        this.notice(`System: A fresh snapshot of tab ${t.n} follows; use the element numbers in it.`);
      }
      return this.error(gate.message, t.n);
    }

    let outcome;
    try {
      outcome = await this.browser.perform(t.targetId, real, { noChangeMs: this.o.noChangeMs, maskPii: this.o.maskPii });
    } catch (e) {
      outcome = { ok: false, message: errorMessage(e), changed: false };
    }
    if (outcome.ok && 'id' in cmd && cmd.id !== undefined && (cmd.action === 'type' || cmd.action === 'click' || cmd.action === 'press_key' || cmd.action === 'select')) {
      t.lastFocused = cmd.id;
    }
    const notFound = !outcome.ok && /Element ID \d+ not found/i.test(outcome.message);
    const expectsChange = EXPECTS_CHANGE.has(cmd.action) || (cmd.action === 'type' && cmd.submit === true);
    if (outcome.ok && !outcome.changed && expectsChange) {
      this.notice(`System: Action executed but no DOM change detected within ${Number((this.o.noChangeMs / 1000).toFixed(1))} seconds.`);
    }

    const end = await this.refresh();
    if (notFound) this.notice(`System: A fresh snapshot of tab ${t.n} follows; use the element numbers in it.`);
    const message = outcome.ok ? this.secrets.redact(outcome.message) : `System Error: ${this.secrets.redact(outcome.message)}`;
    const data = outcome.output ? { attrs: { tab: t.n, source: cmd.action }, body: this.secrets.redact(outcome.output) } : undefined;
    return { ok: outcome.ok, message, tab: t.n, ...(data ? { data } : {}), ...(end ? { end } : {}) };
  }

  /**
   * The safety prompts before acting on an element: typing into a password field, typing a
   * secret into anything else, submitting a payment form. Null when the command may go ahead;
   * otherwise what to tell the model.
   */
  private async gate(t: Target, cmd: InTabCommand): Promise<{ message: string; notFound: boolean } | null> {
    const enter = cmd.action === 'press_key' && isEnter(cmd.key);
    if (cmd.action !== 'type' && cmd.action !== 'click' && !enter) return null;
    const explicit = 'id' in cmd && cmd.id !== undefined ? cmd.id : null;
    // A bare Enter goes to whatever has focus: the element last typed into or clicked.
    const id = explicit ?? (enter ? t.lastFocused : null);
    if (id === null) return null;

    let facts;
    try {
      facts = await this.browser.element(t.targetId, id);
    } catch (e) {
      return { message: `Could not check element ${id} before acting on it: ${errorMessage(e)}`, notFound: false };
    }
    if (facts === null) {
      if (explicit === null) return null; // the focused element went away; Enter goes nowhere special
      return { message: `Element ID ${id} not found.`, notFound: true };
    }
    const where = hostOf(t.url) ?? t.url;
    const questions: string[] = [];
    if (cmd.action === 'type' && facts.isPassword) questions.push(`type into the password field (element ${id}) on ${where}`);
    // A secret typed anywhere but a password field is what a page's injected text would aim for.
    const secretsUsed = cmd.action === 'type' ? this.secrets.namesIn(cmd.value) : [];
    if (secretsUsed.length && !facts.isPassword) {
      questions.push(`type the secret ${secretsUsed.join(', ')} into element ${id} (${facts.tag}, not a password field) on ${where}`);
    }
    const submits = (cmd.action === 'type' && cmd.submit === true) || cmd.action === 'click' || enter;
    if (submits && facts.inPaymentForm && facts.submitsForm) questions.push(`submit the payment form (element ${id}) on ${where}`);
    for (const q of questions) {
      const yes = await this.abortable(this.input.confirm(`${q[0]!.toUpperCase()}${q.slice(1)}?`));
      if (!yes) {
        return { message: `The user declined: ${q}. Do not try it again; choose another way, or finish with done.`, notFound: false };
      }
    }
    return null;
  }

  /** Fresh snapshots of every target tab after an action; landing on a denied domain ends the run. */
  private async refresh(): Promise<Ending | null> {
    for (const t of [...this.targets]) {
      const maxChars = t === this.current ? this.o.snapshotChars : Math.max(1_000, Math.floor(this.o.snapshotChars / 4));
      try {
        t.snapshot = await this.browser.snapshot(t.targetId, { maxChars, maskPii: this.o.maskPii });
        t.url = t.snapshot.url;
      } catch (e) {
        t.snapshot = null;
        this.notice(`System Error: Could not read tab ${t.n} (${this.secrets.redact(t.url)}): ${this.secrets.redact(errorMessage(e))}`);
      }
      const problem = domainProblem(t.url, this.policy);
      if (problem) {
        t.snapshot = null; // a denied page is never shown to the model
        return { status: 'refused', reason: `tab ${t.n} went to ${this.secrets.redact(t.url)}, and ${problem}; the run was stopped there` };
      }
    }
    return null;
  }

  // ---- bookkeeping ----

  private record(turn: number, instruction: Instruction, command: PageCommand | null, e: Pick<Executed, 'ok' | 'message' | 'data' | 'tab'>): void {
    const output = render(e, OUTPUT_CHARS);
    this.records.push({ turn, kind: instruction.kind, stepIndex: instruction.stepIndex, instruction: instruction.text, command, ok: e.ok, output, tab: e.tab });
    this.emit({ type: 'output', turn, command, ok: e.ok, output });
  }

  private notice(text: string): void {
    this.pending.push(text);
    this.emit({ type: 'notice', text });
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

  private checkStop(): void {
    if (this.input.signal?.aborted) throw new Stopped();
  }

  /** Settles with the promise, or rejects with Stopped as soon as the signal aborts. */
  private abortable<T>(p: Promise<T>): Promise<T> {
    const signal = this.input.signal;
    if (!signal) return p;
    if (signal.aborted) {
      p.catch(() => undefined);
      return Promise.reject(new Stopped());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new Stopped());
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(signal.aborted ? new Stopped() : e);
        },
      );
    });
  }
}

function checkPlan(value: unknown): { plan: AgentPlan | null; errors: string[] } {
  const parsed = AgentPlan.safeParse(value);
  if (parsed.success) return { plan: parsed.data, errors: [] };
  return { plan: null, errors: zodErrors(parsed.error, value).map(formatFieldError) };
}

const isBadOutput = (e: unknown) => (e as { code?: unknown } | null)?.code === 'llm_bad_output';
