import { runAgent, type AgentEvent, type AgentResult } from '../engine/agent';
import type { AgentBrowser } from '../engine/agent-ports';
import { DeskPilotError, errorMessage } from '../engine/errors';
import type { AgentPlan, PageCommand } from '../protocol/agent';
import type { AgentRunStatus, AgentRunView, AgentStartResponse, AgentStepView, IpcRequest, IpcResponse } from '../protocol/ipc';
import type { AgentWiring } from '../platform/agent-wiring';

// Agent mode for the app's windows (issue 6 §1), free of Electron like AppService: one run at a
// time; the plan is held until the person approves it (agent:approve), edits it or cancels;
// then runAgent works with the safety questions answered through agent:confirm, corrections
// from agent:correct and Stop (agent:stop) as its abort signal. Every change is pushed whole
// ('agent:update'), and agent:status answers the same view.

/** Builds the agent's models, options and browser from the current configuration; null when no LLM is configured. */
export type AgentFactory = () => Promise<AgentWiring | null>;

export interface AgentServiceDeps {
  factory?: AgentFactory;
  /** Pushes the run's new state to the windows. */
  emit?(view: AgentRunView): void;
}

export type AgentChannel = 'agent:start' | 'agent:approve' | 'agent:stop' | 'agent:correct' | 'agent:status' | 'agent:confirm';
export type AgentHandlers = { [C in AgentChannel]: (request: IpcRequest<C>) => Promise<IpcResponse<C>> };

export const AGENT_NEEDS_LLM =
  'Agent mode needs an LLM: choose a model in Settings (LLM), or set DESKPILOT_LLM_MODEL (and DESKPILOT_LLM_BASE_URL for Ollama or LM Studio).';
const NOT_AVAILABLE = 'Agent mode is not available in this build.';
const BUSY = 'An agent task is already running. Stop it first.';

/** How many notices a view keeps (the newest). */
const MAX_NOTICES = 12;
const OUTPUT_CHARS = 240;

const ENDED: ReadonlySet<AgentRunStatus> = new Set(['done', 'stopped', 'cancelled', 'failed', 'budget', 'refused']);
export const isEnded = (status: AgentRunStatus): boolean => ENDED.has(status);

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

class Run {
  readonly abort = new AbortController();
  readonly view: AgentRunView;
  /** Answers agent:start: the plan, or why there is none. */
  readonly planned = deferred<AgentStartResponse>();
  approval: Deferred<{ approved: boolean; plan?: AgentPlan }> | null = null;
  confirmation: Deferred<boolean> | null = null;
  plan: AgentPlan | null = null;
  readonly corrections: string[] = [];
  /** The entry in view.steps the agent is working on. */
  current: number | null = null;
  /** Entries whose command typed into a password field (their value is never shown). */
  readonly passwordEntries = new Set<number>();
  /** Settles (never rejects) when the run has ended and its browser is released. */
  finished: Promise<void> = Promise.resolve();

  constructor(runId: string, goal: string) {
    this.view = { runId, version: 0, goal, status: 'planning', steps: [], notices: [], commands: 0 };
  }
}

export class AgentService {
  private run: Run | null = null;
  private seq = 0;

  constructor(private readonly deps: AgentServiceDeps) {}

  handlers(): AgentHandlers {
    return {
      'agent:start': (r) => this.start(r.goal),
      'agent:approve': async (r) => this.approve(r.runId, r.approve, r.steps),
      'agent:stop': async (r) => this.stop(r.runId),
      'agent:correct': async (r) => this.correct(r.runId, r.text),
      'agent:status': async (r) => copy(this.find(r.runId).view),
      'agent:confirm': async (r) => this.confirm(r.runId, r.accept),
    };
  }

  /** Stops the run in progress and waits (briefly) for it to let go of the browser. */
  async dispose(): Promise<void> {
    const run = this.run;
    if (!run || isEnded(run.view.status)) return;
    this.halt(run);
    await Promise.race([run.finished, new Promise((r) => setTimeout(r, 3_000).unref?.())]);
  }

  async start(goal: string): Promise<AgentStartResponse> {
    const previous = this.run;
    if (previous && !isEnded(previous.view.status)) {
      // Nothing of a plan that is not approved yet has run: a new task replaces it.
      if (previous.view.status !== 'planning' && previous.view.status !== 'awaiting_approval') return { error: BUSY };
      this.halt(previous);
    }
    const run = new Run(`a${++this.seq}-${Date.now().toString(36)}`, goal);
    this.run = run;
    this.push(run);
    run.finished = this.begin(run);
    return run.planned.promise;
  }

  private async begin(run: Run): Promise<void> {
    let browser: AgentBrowser | null = null;
    const release = async () => {
      await browser?.dispose().catch(() => undefined);
    };
    try {
      if (!this.deps.factory) return this.end(run, 'failed', NOT_AVAILABLE);
      const wiring = await this.deps.factory();
      if (!wiring) return this.end(run, 'failed', AGENT_NEEDS_LLM);
      if (run.abort.signal.aborted) return this.end(run, 'stopped', stoppedReason(0));
      for (const m of wiring.missingSecrets) this.notice(run, `The secret ${m} is not set in the environment, so the agent cannot use it.`);
      browser = await wiring.connectBrowser();
      if (run.abort.signal.aborted) {
        await release();
        return this.end(run, 'stopped', stoppedReason(0));
      }
      const result = await runAgent({
        goal: run.view.goal,
        browser,
        models: wiring.models,
        tools: wiring.tools,
        options: wiring.options,
        signal: run.abort.signal,
        corrections: () => run.corrections.shift() ?? null,
        onEvent: (e) => this.onEvent(run, e),
        approve: (plan) => {
          run.approval = deferred();
          run.view.status = 'awaiting_approval';
          run.planned.resolve({ runId: run.view.runId, plan: [...plan.steps], message: plan.message });
          this.push(run);
          return run.approval.promise;
        },
        confirm: async (question) => {
          if (/\bpassword field\b/i.test(question) && run.current !== null) run.passwordEntries.add(run.current);
          run.confirmation = deferred();
          run.view.confirm = { question };
          this.push(run);
          try {
            return await run.confirmation.promise;
          } finally {
            run.confirmation = null;
            delete run.view.confirm;
            this.push(run);
          }
        },
      });
      await release();
      this.finish(run, result);
    } catch (e) {
      await release();
      if (run.abort.signal.aborted) this.end(run, 'stopped', stoppedReason(run.view.commands));
      else this.end(run, 'failed', errorMessage(e));
    }
  }

  approve(runId: string, approve: boolean, steps?: string[]): { started: boolean; reason?: string } {
    const run = this.find(runId);
    const approval = run.approval;
    if (!approval || run.view.status !== 'awaiting_approval') {
      return { started: false, reason: isEnded(run.view.status) ? 'This task has already ended.' : 'This plan is not waiting for approval.' };
    }
    run.approval = null;
    if (!approve) {
      approval.resolve({ approved: false });
      return { started: false };
    }
    const plan = run.plan;
    const edited = plan && steps && !sameSteps(steps, plan.steps) ? { steps, message: plan.message } : null;
    run.view.status = 'running';
    this.push(run);
    approval.resolve(edited ? { approved: true, plan: edited } : { approved: true });
    return { started: true };
  }

  stop(runId: string): { stopped: boolean } {
    const run = this.find(runId);
    if (isEnded(run.view.status) || run.abort.signal.aborted) return { stopped: false };
    this.halt(run);
    return { stopped: true };
  }

  correct(runId: string, text: string): { accepted: boolean } {
    const run = this.find(runId);
    if (run.view.status !== 'running') return { accepted: false };
    run.corrections.push(text);
    // Shown at once, as waiting; it becomes the agent's next instruction.
    run.view.steps.push({ index: run.view.steps.length, step: text, kind: 'correction', state: 'pending' });
    this.push(run);
    return { accepted: true };
  }

  confirm(runId: string, accept: boolean): { answered: boolean } {
    const run = this.find(runId);
    const c = run.confirmation;
    if (!c) return { answered: false };
    run.confirmation = null;
    c.resolve(accept);
    return { answered: true };
  }

  // ---- the run's state ----

  private find(runId: string): Run {
    const run = this.run;
    if (!run || run.view.runId !== runId) throw new DeskPilotError('That agent task is gone; start it again.', 'expired');
    return run;
  }

  /** Stop: the signal ends the loop; questions waiting for the person are answered no. */
  private halt(run: Run): void {
    if (!run.abort.signal.aborted) run.abort.abort();
    run.approval?.resolve({ approved: false });
    run.approval = null;
    run.confirmation?.resolve(false);
    run.confirmation = null;
    if (!isEnded(run.view.status)) {
      delete run.view.confirm;
      if (run.view.status === 'running') run.view.status = 'stopping';
      this.push(run);
    }
  }

  private onEvent(run: Run, e: AgentEvent): void {
    const v = run.view;
    switch (e.type) {
      case 'plan':
        run.plan = e.plan;
        v.message = e.plan.message;
        v.steps = [
          ...e.plan.steps.map((step, index): AgentStepView => ({ index, step, kind: 'plan', state: 'pending' })),
          // Corrections sent before an edited plan arrived stay listed.
          ...v.steps.filter((s) => s.kind === 'correction'),
        ].map((s, index) => ({ ...s, index }));
        run.current = null;
        break;
      case 'step-start': {
        const entry = this.entryFor(run, e.kind, e.stepIndex, e.instruction);
        entry.state = 'running';
        delete entry.command;
        delete entry.output;
        run.passwordEntries.delete(entry.index);
        if (e.attempt > 1) entry.attempt = e.attempt;
        else delete entry.attempt;
        run.current = entry.index;
        break;
      }
      case 'command': {
        // What is typed shows once the browser has said what kind of field took it (below):
        // a password is never shown, not even while its safety question waits.
        const entry = this.currentEntry(run);
        if (entry) entry.command = e.command.action === 'type' ? `Typing into ${element(e.command.id)}…` : commandWords(e.command);
        break;
      }
      case 'output': {
        const entry = this.currentEntry(run);
        if (entry) {
          const password = e.command?.action === 'type' && (run.passwordEntries.has(entry.index) || /\bpassword field\b/i.test(e.output));
          entry.command = e.command ? commandWords(e.command, { hideValue: password }) : 'No usable command';
          // "Done." after the answer says nothing the answer does not.
          if (e.command?.action === 'done') delete entry.output;
          else entry.output = shortOutput(e.output);
          entry.state = e.ok ? 'done' : 'failed';
        }
        if (e.command && e.command.action !== 'done') v.commands++;
        break;
      }
      case 'notice': {
        const text = noticeText(e.text);
        if (text) this.notice(run, text, false);
        break;
      }
      case 'done':
        v.answer = e.answer;
        break;
      default:
        // 'stopped' and 'error' end the run: finish() takes the result's status and reason.
        return;
    }
    this.push(run);
  }

  /** The view entry an executor turn is about; corrections and finishing turns get one of their own. */
  private entryFor(run: Run, kind: 'plan' | 'correction' | 'wrap-up', stepIndex: number | null, instruction: string): AgentStepView {
    const steps = run.view.steps;
    if (kind === 'plan' && stepIndex !== null) {
      const s = steps.find((x) => x.kind === 'plan' && x.index === stepIndex);
      if (s) return s;
    }
    if (kind === 'correction') {
      const text = instruction.replace(/^User correction:\s*/, '');
      const current = run.current !== null ? steps[run.current] : undefined;
      if (current?.kind === 'correction' && current.step === text && current.state !== 'done') return current;
      const waiting = steps.find((x) => x.kind === 'correction' && x.state === 'pending' && x.step === text);
      if (waiting) return waiting;
      return this.append(run, { step: text, kind: 'correction' });
    }
    const finishing = steps.find((x) => x.kind === 'finish');
    return finishing ?? this.append(run, { step: 'Finish and answer', kind: 'finish' });
  }

  private append(run: Run, s: Pick<AgentStepView, 'step' | 'kind'>): AgentStepView {
    const entry: AgentStepView = { index: run.view.steps.length, ...s, state: 'pending' };
    run.view.steps.push(entry);
    return entry;
  }

  private currentEntry(run: Run): AgentStepView | undefined {
    return run.current === null ? undefined : run.view.steps[run.current];
  }

  private notice(run: Run, text: string, push = true): void {
    const n = run.view.notices;
    if (n.at(-1) === text) return;
    n.push(text);
    if (n.length > MAX_NOTICES) n.splice(0, n.length - MAX_NOTICES);
    if (push) this.push(run);
  }

  private finish(run: Run, result: AgentResult): void {
    const v = run.view;
    v.commands = result.commands;
    if (result.answer !== null) v.answer = result.answer;
    const reason =
      result.status === 'cancelled' ? 'Cancelled — nothing was run.' : result.status === 'stopped' ? stoppedReason(result.commands) : result.reason;
    this.end(run, result.status, reason);
  }

  /** Ends the run (once): its status, why, the step in progress marked, and agent:start answered. */
  private end(run: Run, status: AgentRunStatus, reason: string | null): void {
    const v = run.view;
    if (isEnded(v.status)) return;
    v.status = status;
    if (reason && status !== 'done') v.reason = sentence(reason);
    for (const s of v.steps) {
      if (s.state !== 'running') continue;
      // A step cut short by Stop is simply not done; one the run failed on is failed.
      s.state = status === 'done' ? 'done' : status === 'stopped' || status === 'cancelled' ? 'pending' : 'failed';
    }
    delete v.confirm;
    run.current = null;
    run.approval?.resolve({ approved: false });
    run.approval = null;
    run.confirmation?.resolve(false);
    run.confirmation = null;
    run.planned.resolve({ error: v.reason ?? `The task ended: ${status}.` });
    this.push(run);
  }

  private push(run: Run): void {
    run.view.version++;
    if (!this.deps.emit) return;
    try {
      this.deps.emit(copy(run.view));
    } catch {
      // A window that cannot be told must not break the run.
    }
  }
}

const copy = (v: AgentRunView): AgentRunView => structuredClone(v);

const sameSteps = (a: string[], b: string[]) => a.length === b.length && a.every((s, i) => s === b[i]);

const stoppedReason = (commands: number) =>
  commands === 0 ? 'Stopped — nothing was run.' : `Stopped after ${commands} command${commands === 1 ? '' : 's'}. Tabs the agent opened stay open.`;

/** The loop's reasons are clauses ("the plan's steps ran, but …"); the person reads a sentence. */
const sentence = (s: string) => {
  const t = s.trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
};

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** The model-facing output, for a person: no page_data wrappers, no "System Error:", one short line. */
function shortOutput(output: string): string {
  const text = output
    .replace(/<\/?page_data[^>]*>/g, ' ')
    .replace(/^System Error:\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return clip(text, OUTPUT_CHARS);
}

/** Notices worth showing a person (the model's own bookkeeping is left out). */
function noticeText(text: string): string | null {
  if (/^System( Error)?: (A fresh snapshot of tab|Your answer could not be used)/.test(text)) return null;
  return text.replace(/^System( Error)?:\s*/, '');
}

const quoted = (s: string, n = 60) => `“${clip(s, n)}”`;
const element = (id: number) => `element ${id}`;

/** A page command in words, for the step list; `hideValue` for what went into a password field. */
export function commandWords(c: PageCommand, opts: { hideValue?: boolean } = {}): string {
  switch (c.action) {
    case 'click':
      return `${c.count === 2 ? 'Double-clicked' : c.button === 'right' ? 'Right-clicked' : 'Clicked'} ${element(c.id)}`;
    case 'type': {
      const what = opts.hideValue ? `${c.value.length} hidden character${c.value.length === 1 ? '' : 's'}` : quoted(c.value);
      return `${c.mode === 'append' ? 'Added' : 'Typed'} ${what} into ${opts.hideValue ? 'the password field, ' : ''}${element(c.id)}${c.submit ? ', then pressed Enter' : ''}`;
    }
    case 'select': {
      const o = c.option;
      const which = 'text' in o ? quoted(o.text) : 'value' in o ? `value ${quoted(o.value)}` : `option ${o.index + 1}`;
      return `Chose ${which} in ${element(c.id)}`;
    }
    case 'press_key':
      return `Pressed ${c.key}${c.id !== undefined ? ` on ${element(c.id)}` : ''}`;
    case 'scroll':
      return `Scrolled ${c.direction === 'top' || c.direction === 'bottom' ? `to the ${c.direction}` : c.direction}${c.id !== undefined ? ` in ${element(c.id)}` : ''}`;
    case 'navigate':
      return typeof c.to === 'string' ? (c.to === 'reload' ? 'Reloaded the page' : `Went ${c.to}`) : `Went to ${c.to.url}`;
    case 'wait_for':
      return `Waited for ${typeof c.condition === 'string' ? (c.condition === 'navigation' ? 'the page to load' : 'the network to go quiet') : quoted(c.condition.text)}`;
    case 'read_page':
      return c.id !== undefined ? `Read ${element(c.id)}` : 'Read the page';
    case 'open_tab':
      return `Opened ${c.url} in a new tab`;
    case 'open_tool':
      return `Opened the tool ${quoted(c.name)}`;
    case 'switch_tab':
      return `Switched to tab ${c.tab}`;
    case 'close_tab':
      return `Closed tab ${c.tab}`;
    case 'done':
      return 'Finished with the answer';
  }
}
