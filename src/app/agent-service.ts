import { runAgent, type AgentResult } from '../engine/agent';
import type { AgentBrowser } from '../engine/agent-ports';
import { DeskPilotError, errorMessage } from '../engine/errors';
import { isDirectAnswer, type AgentPlan } from '../protocol/agent';
import { isEnded } from '../protocol/agent-view';
import type { AgentRunStatus, AgentRunView, AgentStartResponse, IpcRequest, IpcResponse } from '../protocol/ipc';
import type { AgentWiring } from './wired';
import { initialRunView, reduceRunView, type RunViewEvent, type RunViewState } from './agent-run-view';

// Agent mode for the app's windows, free of Electron like AppService: one run at a time; the
// plan is held until the person approves it (agent:approve), edits it or cancels; then runAgent
// works with the safety questions answered through agent:confirm, corrections from
// agent:correct and Stop (agent:stop) as its abort signal. What the view says is
// agent-run-view.ts; every change is pushed whole ('agent:update'), and agent:status answers
// the same view.

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
  state: RunViewState;
  /** Answers agent:start: the plan, or why there is none. */
  readonly planned = deferred<AgentStartResponse>();
  approval: Deferred<{ approved: boolean; plan?: AgentPlan }> | null = null;
  confirmation: Deferred<boolean> | null = null;
  plan: AgentPlan | null = null;
  readonly corrections: string[] = [];
  /** Settles (never rejects) when the run has ended and its browser is released. */
  finished: Promise<void> = Promise.resolve();

  constructor(runId: string, goal: string, readonly currentTab: boolean) {
    this.state = initialRunView(runId, goal);
  }

  get view(): AgentRunView {
    return this.state.view;
  }
}

export class AgentService {
  private run: Run | null = null;
  private seq = 0;

  constructor(private readonly deps: AgentServiceDeps) {}

  handlers(): AgentHandlers {
    return {
      'agent:start': (r) => this.start(r.goal, { currentTab: r.currentTab === true }),
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

  /** `currentTab`: start on the tab the person is looking at instead of fresh background tabs. */
  async start(goal: string, opts: { currentTab?: boolean } = {}): Promise<AgentStartResponse> {
    const previous = this.run;
    if (previous && !isEnded(previous.view.status)) {
      // Nothing of a plan that is not approved yet has run: a new task replaces it.
      if (previous.view.status !== 'planning' && previous.view.status !== 'awaiting_approval') return { error: BUSY };
      this.halt(previous);
    }
    const run = new Run(`a${++this.seq}-${Date.now().toString(36)}`, goal, opts.currentTab === true);
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
      for (const m of wiring.missingSecrets) {
        this.apply(run, { type: 'notice', code: 'secret_missing', audience: 'person', text: `The secret ${m} is not set in the environment, so the agent cannot use it.` });
      }
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
        ...(run.currentTab ? { startTab: 'current' as const } : {}),
        signal: run.abort.signal,
        corrections: () => run.corrections.shift() ?? null,
        onEvent: (e) => {
          if (e.type === 'plan') run.plan = e.plan;
          this.apply(run, e);
        },
        approve: (plan) => {
          run.approval = deferred();
          run.planned.resolve({ runId: run.view.runId, plan: [...plan.steps], message: plan.message });
          this.apply(run, { type: 'awaiting-approval' });
          return run.approval.promise;
        },
        confirm: async (question) => {
          run.confirmation = deferred();
          this.apply(run, { type: 'question', question });
          try {
            return await run.confirmation.promise;
          } finally {
            run.confirmation = null;
            this.apply(run, { type: 'question-answered' });
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
    this.apply(run, { type: 'approved' });
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
    this.apply(run, { type: 'correction', text });
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
    this.settleQuestions(run);
    this.apply(run, { type: 'stopping' });
  }

  private settleQuestions(run: Run): void {
    run.approval?.resolve({ approved: false });
    run.approval = null;
    run.confirmation?.resolve(false);
    run.confirmation = null;
  }

  private finish(run: Run, result: AgentResult): void {
    const reason =
      result.status === 'cancelled' ? 'Cancelled — nothing was run.' : result.status === 'stopped' ? stoppedReason(result.commands) : result.reason;
    this.end(run, result.status, reason, { commands: result.commands, answer: result.answer });
  }

  /** Ends the run (once): the view says how, waiting questions are answered no, and agent:start is answered. */
  private end(run: Run, status: AgentRunStatus, reason: string | null, result: { commands?: number; answer?: string | null } = {}): void {
    if (isEnded(run.view.status)) return;
    this.apply(run, { type: 'ended', status, reason, ...result });
    this.settleQuestions(run);
    // A question the page shown answered ends done before any approval: agent:start gets the answer.
    if (status === 'done' && run.plan && isDirectAnswer(run.plan)) {
      run.planned.resolve({ runId: run.view.runId, plan: [], message: run.view.answer ?? run.plan.message });
    } else run.planned.resolve({ error: run.view.reason ?? `The task ended: ${status}.` });
  }

  /** Folds what happened into the run's view, and pushes the view when it changed. */
  private apply(run: Run, e: RunViewEvent): void {
    const next = reduceRunView(run.state, e);
    if (next === run.state) return;
    run.state = next;
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
