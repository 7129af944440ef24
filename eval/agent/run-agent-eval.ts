// `npm run eval -- --agent [--filter id[,id…]] [--verbose] [--timeout ms]`
// The offline agent task suite: starts a real Xvfb + Chromium desktop and the
// suite's page server, runs every task with the real agent loop (runAgent), the real CDP agent
// browser and the LLM models configured in the environment, then asks each page's own success
// check. Prints per task ✓/✗, commands used, status and seconds; then the success rate, mean
// commands per successful task and the tokens used. See eval/README.md.
// Exit codes: 0 the suite ran (whatever the figures), 2 bad arguments, no LLM configured, or no
// desktop to run on.

import { performance } from 'node:perf_hooks';
import { describeCommand, outcomeLine as stepLine, runAgent, type AgentEvent, type AgentResult, type AgentStatus } from '../../src/engine/agent';
import type { AgentModels } from '../../src/engine/agent-ports';
import { errorMessage } from '../../src/engine/errors';
import type { TokenUsage } from '../../src/engine/ports';
import { clip } from '../../src/engine/words';
import { createCdpAgentBrowser } from '../../src/platform/chrome/agent';
import { createLlmAgentModels } from '../../src/platform/llm/agent-models';
import type { LlmOptions } from '../../src/platform/llm/llm-options';
import { desktopUnavailableReason, startDesktop } from '../../tests/support/desktop';
import type { Io } from '../io';
import { PageProbe } from './page-probe';
import { startEvalPages, type EvalPages } from './serve';
import { TASKS, goalFor, isPageTaskResult, type AgentTask, type PageTaskResult } from './tasks';

export const AGENT_USAGE = 'usage: tsx eval/run.ts --agent [--filter id[,id…]] [--verbose] [--timeout ms]';

export const AGENT_LLM_MISSING =
  'The agent eval needs an LLM: set DESKPILOT_LLM_BASE_URL and DESKPILOT_LLM_MODEL (or DESKPILOT_AGENT_PLANNER_MODEL and DESKPILOT_AGENT_EXECUTOR_MODEL instead of the model), plus DESKPILOT_LLM_API_KEY or OPENAI_API_KEY for a hosted endpoint.';

const DEFAULT_TASK_TIMEOUT_MS = 300_000;

export interface AgentEvalOptions {
  /** Task ids; empty = every task. */
  filter: string[];
  verbose: boolean;
  /** Bound on one task's whole run (planning included); the run is stopped when it passes. */
  timeoutMs: number;
}

export function parseAgentArgs(argv: readonly string[]): AgentEvalOptions | string {
  const o: AgentEvalOptions = { filter: [], verbose: false, timeoutMs: DEFAULT_TASK_TIMEOUT_MS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--agent':
        break;
      case '--filter': {
        const v = value();
        if (!v) return `--filter needs a task id\n${AGENT_USAGE}`;
        o.filter.push(...v.split(',').map((t) => t.trim()).filter(Boolean));
        break;
      }
      case '--verbose':
      case '-v':
        o.verbose = true;
        break;
      case '--timeout': {
        const n = Number(value());
        if (!Number.isInteger(n) || n <= 0) return `--timeout must be a positive number of milliseconds (per task)\n${AGENT_USAGE}`;
        o.timeoutMs = n;
        break;
      }
      case '--help':
      case '-h':
        return AGENT_USAGE;
      default:
        return `unknown argument "${arg}"\n${AGENT_USAGE}`;
    }
  }
  return o;
}

// ---- the models, from the environment ----

export interface AgentLlmEnv {
  planner: LlmOptions;
  executor: LlmOptions;
}

/**
 * Planner and executor endpoints from the variables the app reads. Null when the base URL or a
 * model is missing; a message when an optional variable is malformed.
 */
export function agentLlmEnv(env: NodeJS.ProcessEnv): AgentLlmEnv | null | string {
  const v = (name: string) => env[name]?.trim() || undefined;
  const baseURL = v('DESKPILOT_LLM_BASE_URL');
  const model = v('DESKPILOT_LLM_MODEL');
  const planner = v('DESKPILOT_AGENT_PLANNER_MODEL') ?? model;
  const executor = v('DESKPILOT_AGENT_EXECUTOR_MODEL') ?? model;
  if (!baseURL || !planner || !executor) return null;
  const apiKey = v('DESKPILOT_LLM_API_KEY') ?? v('OPENAI_API_KEY');
  const mode = v('DESKPILOT_LLM_MODE');
  if (mode !== undefined && mode !== 'strict' && mode !== 'json_object') return `DESKPILOT_LLM_MODE must be "strict" or "json_object", not "${mode}".`;
  const timeout = v('DESKPILOT_LLM_TIMEOUT_MS') !== undefined ? Number(v('DESKPILOT_LLM_TIMEOUT_MS')) : undefined;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1000)) return 'DESKPILOT_LLM_TIMEOUT_MS must be a whole number of milliseconds, at least 1000.';
  const common: Omit<LlmOptions, 'model'> = { baseURL, ...(apiKey ? { apiKey } : {}), ...(mode ? { mode } : {}), ...(timeout ? { timeoutMs: timeout } : {}) };
  return { planner: { ...common, model: planner }, executor: { ...common, model: executor } };
}

// ---- running the tasks ----

export interface TaskOutcome {
  id: string;
  /** The page's success check passed. */
  passed: boolean;
  status: AgentStatus;
  /** Commands executed (open_tab and done included): what the step budget counts. */
  steps: number;
  seconds: number;
  answer: string | null;
  /** Why the run ended when it did not end with done. */
  reason: string | null;
  /** The page check's own words (or why it could not be read). */
  detail: string;
  usage: TokenUsage;
  /** Safety questions the run asked, and what the suite answered. */
  confirms: Array<{ question: string; answer: boolean }>;
}

export interface AgentEvalDeps {
  /** A real Chromium with remote debugging. Default: a fresh Xvfb desktop (tests/support/desktop.ts). */
  startChrome(): Promise<{ browserWsUrl: string; stop(): Promise<void> }>;
  /** The task pages' server. Default: a fresh one (eval/agent/serve.ts), stopped at the end. */
  startPages(): Promise<EvalPages>;
  /** Default: createLlmAgentModels over the configured endpoints. */
  models(llm: AgentLlmEnv): AgentModels;
}

/** The desktop cannot run here; the message says what is missing. */
export class DesktopUnavailable extends Error {}

export const defaultDeps: AgentEvalDeps = {
  async startChrome() {
    const reason = desktopUnavailableReason();
    if (reason) throw new DesktopUnavailable(reason);
    const desk = await startDesktop({ chrome: true });
    return { browserWsUrl: desk.chrome!.browserWsUrl, stop: () => desk.stop() };
  },
  startPages: startEvalPages,
  models: (llm) => createLlmAgentModels(llm),
};

const defaultIo: Io = { out: (l) => console.log(l), err: (l) => console.error(l), env: process.env };

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const fmt = (n: number) => n.toLocaleString('en-US');

/** Only the login task's password field gets a yes; every other safety question a no. */
export function confirmAnswer(task: AgentTask, question: string): boolean {
  return task.secrets !== undefined && /^Type into the password field \(element \d+\)/.test(question);
}

function verbosePrinter(io: Io, task: AgentTask): (e: AgentEvent) => void {
  return (e) => {
    switch (e.type) {
      case 'plan':
        io.out(`    plan${e.edited ? ' (edited)' : ''}${e.repaired ? ' (after a repair round)' : ''}: ${e.plan.message}`);
        e.plan.steps.forEach((s, i) => io.out(`      ${i + 1}. ${s}`));
        return;
      case 'output':
        if (e.command?.action === 'done') return; // the answer line follows
        io.out(`    ${e.ok ? '✓' : '✗'} ${e.command ? describeCommand(e.command, { as: 'log' }) : 'no valid command'} — ${stepLine(e, 160)}`);
        return;
      case 'notice':
        io.out(`    ! ${clip(e.text, 200)}`);
        return;
      case 'done':
        io.out(`    answer: ${clip(oneLine(e.answer), 300)}`);
        return;
      case 'stopped':
      case 'error':
        io.out(`    ended: ${'reason' in e ? e.reason : e.message} [${task.id}]`);
        return;
      default:
        return;
    }
  };
}

async function runTask(
  task: AgentTask,
  ctx: { browserWsUrl: string; pages: EvalPages; probe: PageProbe; models: AgentModels; opts: AgentEvalOptions; io: Io; abort: AbortSignal },
): Promise<TaskOutcome> {
  const { pages, probe, io, opts } = ctx;
  const before = new Set((await probe.pages()).map((p) => p.targetId));
  const confirms: TaskOutcome['confirms'] = [];
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  const onAbort = () => controller.abort();
  ctx.abort.addEventListener('abort', onAbort, { once: true });
  const browser = createCdpAgentBrowser({ browserWsUrl: ctx.browserWsUrl });
  const t0 = performance.now();
  let result: AgentResult;
  try {
    result = await runAgent({
      goal: goalFor(task, pages.url(task.page)),
      browser,
      models: ctx.models,
      options: {
        maxSteps: task.maxSteps,
        // The pages are all on the suite's server: nothing else may be visited.
        allowDomains: [new URL(pages.base).hostname],
        ...(task.secrets ? { secrets: task.secrets } : {}),
      },
      approve: async () => ({ approved: true }),
      confirm: async (question) => {
        const answer = confirmAnswer(task, question);
        confirms.push({ question, answer });
        if (opts.verbose) io.out(`    ? ${question} → ${answer ? 'yes' : 'no'}`);
        return answer;
      },
      signal: controller.signal,
      ...(opts.verbose ? { onEvent: verbosePrinter(io, task) } : {}),
    });
  } catch (e) {
    // runAgent reports failures as results; anything thrown is a bug worth seeing, not a crash of the suite.
    result = { status: 'failed', answer: null, steps: [], plan: null, reason: `runAgent threw: ${errorMessage(e)}`, commands: 0, usage: { prompt_tokens: 0, completion_tokens: 0 } };
  } finally {
    clearTimeout(timer);
    ctx.abort.removeEventListener('abort', onAbort);
    await browser.dispose().catch(() => undefined);
  }
  const seconds = (performance.now() - t0) / 1000;
  const reason = timedOut ? `timed out after ${Math.round(opts.timeoutMs / 1000)} s` : result.reason;

  // The page's own check, in every tab the agent opened that is still on the suite's pages.
  const opened = (await probe.pages()).filter((p) => !before.has(p.targetId));
  const onSuite = opened.filter((p) => p.url.startsWith(`${pages.base}/`));
  let passed = false;
  const details: string[] = [];
  for (const tab of onSuite) {
    let seen: PageTaskResult | null = null;
    const evaluateInPage = async (expression: string) => {
      const v = await probe.evaluate(tab.targetId, expression);
      if (isPageTaskResult(v)) seen = v;
      return v;
    };
    let ok: boolean;
    try {
      ok = await task.check(evaluateInPage, { answer: result.answer });
    } catch (e) {
      details.push(`the check could not run on ${tab.url}: ${errorMessage(e)}`);
      continue;
    }
    const said = (seen as PageTaskResult | null)?.detail ?? (ok ? 'passed' : 'failed');
    if (ok) {
      passed = true;
      details.unshift(said);
      break;
    }
    details.push(said);
  }
  if (onSuite.length === 0) details.push(opened.length ? `no tab the agent left open is on the task pages (${opened.map((p) => p.url).join(', ')})` : 'the agent left no tab open');
  for (const p of opened) await probe.close(p.targetId);

  return {
    id: task.id,
    passed,
    status: result.status,
    steps: result.commands,
    seconds,
    answer: result.answer,
    reason,
    detail: [...new Set(details)].join('; '),
    usage: result.usage,
    confirms,
  };
}

export function outcomeLine(o: TaskOutcome, idWidth: number): string {
  const steps = `${o.steps} step${o.steps === 1 ? '' : 's'}`;
  const line = `${o.passed ? '✓' : '✗'} ${o.id.padEnd(idWidth)}  ${steps.padStart(8)}  ${o.status.padEnd(9)} ${o.seconds.toFixed(1).padStart(6)} s`;
  if (o.passed) return line;
  const why = [o.detail, o.status !== 'done' && o.reason ? o.reason : ''].filter(Boolean).join(' — ');
  return `${line}  ${clip(why, 200)}`;
}

export interface AgentFigures {
  tasks: number;
  passed: number;
  rate: number;
  /** Mean commands over the tasks that passed; null when none did. */
  meanSteps: number | null;
  usage: TokenUsage;
}

export function agentFigures(outcomes: TaskOutcome[]): AgentFigures {
  const ok = outcomes.filter((o) => o.passed);
  const usage = outcomes.reduce((u, o) => ({ prompt_tokens: u.prompt_tokens + o.usage.prompt_tokens, completion_tokens: u.completion_tokens + o.usage.completion_tokens }), {
    prompt_tokens: 0,
    completion_tokens: 0,
  });
  return {
    tasks: outcomes.length,
    passed: ok.length,
    rate: outcomes.length ? ok.length / outcomes.length : 0,
    meanSteps: ok.length ? ok.reduce((n, o) => n + o.steps, 0) / ok.length : null,
    usage,
  };
}

export function summaryLines(f: AgentFigures): string[] {
  const pct = `${(f.rate * 100).toFixed(1)}%`;
  const tokens = f.usage.prompt_tokens + f.usage.completion_tokens > 0;
  return [
    `Success rate: ${f.passed}/${f.tasks} tasks (${pct})`,
    `Mean steps per successful task: ${f.meanSteps === null ? '—' : f.meanSteps.toFixed(1)}`,
    tokens ? `Tokens: ${fmt(f.usage.prompt_tokens)} prompt / ${fmt(f.usage.completion_tokens)} completion (planner and executor, all tasks)` : 'Tokens: not reported by the endpoint',
    `SUMMARY agent tasks=${f.tasks} passed=${f.passed} rate=${pct} mean_steps=${f.meanSteps === null ? 'n/a' : f.meanSteps.toFixed(1)}` +
      (tokens ? ` prompt_tokens=${f.usage.prompt_tokens} completion_tokens=${f.usage.completion_tokens}` : ''),
  ];
}

/** The whole run; `outcomes` is null when it could not start (exit 2). */
export async function runAgentEval(
  argv: readonly string[],
  io: Io = defaultIo,
  deps: AgentEvalDeps = defaultDeps,
  tasks: readonly AgentTask[] = TASKS,
): Promise<{ code: number; outcomes: TaskOutcome[] | null }> {
  const opts = parseAgentArgs(argv);
  if (typeof opts === 'string') {
    (opts === AGENT_USAGE ? io.out : io.err)(opts);
    return { code: opts === AGENT_USAGE ? 0 : 2, outcomes: null };
  }
  let selected = [...tasks];
  if (opts.filter.length) {
    const unknown = opts.filter.filter((id) => !tasks.some((t) => t.id === id));
    if (unknown.length) {
      io.err(`No task has the id ${unknown.map((t) => `"${t}"`).join(' or ')}; tasks: ${tasks.map((t) => t.id).join(', ')}`);
      return { code: 2, outcomes: null };
    }
    selected = tasks.filter((t) => opts.filter.includes(t.id));
  }
  const llm = agentLlmEnv(io.env);
  if (llm === null || typeof llm === 'string') {
    io.err(llm ?? AGENT_LLM_MISSING);
    return { code: 2, outcomes: null };
  }

  let chrome: Awaited<ReturnType<AgentEvalDeps['startChrome']>> | null = null;
  let pages: EvalPages | null = null;
  let probe: PageProbe | null = null;
  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(130); // a second Ctrl-C: leave now (desktop.ts's exit hook kills what it started)
    io.err('\nstopping: the task in progress is stopped and the rest skipped…');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    try {
      [chrome, pages] = await Promise.all([deps.startChrome(), deps.startPages()]);
    } catch (e) {
      if (e instanceof DesktopUnavailable) {
        io.err(`The agent eval runs in a real Chromium on an Xvfb desktop: ${e.message}`);
        return { code: 2, outcomes: null };
      }
      throw e;
    }
    probe = await PageProbe.connect(chrome.browserWsUrl);
    const models = deps.models(llm);
    const same = llm.planner.model === llm.executor.model;
    io.out(
      `Agent eval: ${selected.length} task${selected.length === 1 ? '' : 's'} in a real Chromium; ` +
        `${same ? `model ${llm.planner.model}` : `planner ${llm.planner.model}, executor ${llm.executor.model}`} at ${llm.planner.baseURL}`,
    );
    const width = Math.max(...selected.map((t) => t.id.length));
    const outcomes: TaskOutcome[] = [];
    for (const task of selected) {
      if (abort.signal.aborted) break;
      if (opts.verbose) io.out(`  ${task.id} (${task.covers}): ${goalFor(task, pages.url(task.page))}`);
      const o = await runTask(task, { browserWsUrl: chrome.browserWsUrl, pages, probe, models, opts, io, abort: abort.signal });
      outcomes.push(o);
      io.out(outcomeLine(o, width));
      if (opts.verbose && o.passed) io.out(`    check: ${o.detail}`);
    }
    io.out('');
    if (outcomes.length < selected.length) io.out(`(stopped: ${selected.length - outcomes.length} task(s) not run)`);
    for (const l of summaryLines(agentFigures(outcomes))) io.out(l);
    return { code: 0, outcomes };
  } finally {
    process.off('SIGINT', onSigint);
    await probe?.dispose();
    await Promise.all([chrome?.stop(), pages?.stop()]);
  }
}

export async function main(argv: readonly string[], io: Io = defaultIo, deps: AgentEvalDeps = defaultDeps): Promise<number> {
  return (await runAgentEval(argv, io, deps)).code;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      // An HTTP client's keep-alive sockets must not hold the process open after the report.
      setTimeout(() => process.exit(code), 1_000).unref();
    },
    (e) => {
      console.error(`agent eval crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exit(1);
    },
  );
}
