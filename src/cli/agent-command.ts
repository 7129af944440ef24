import type { AgentBrowser } from '../engine/agent-ports';
import { describeCommand, outcomeLine, runAgent, type AgentEvent, type AgentResult, type AgentStatus } from '../engine/agent';
import { errorMessage } from '../engine/errors';
import { AgentPlan, isDirectAnswer } from '../protocol/agent';
import { formatFieldError, zodErrors } from '../protocol/validation';
import { connectAgentBrowser, NO_LLM_FOR_AGENT, wireAgent } from '../compose/agent-wiring';
import { loadConfig, type Config, type ConfigFlags } from '../platform/config/load-config';
import { EXIT } from './exit-codes';
import type { Io } from './io';

// `deskpilot agent "goal"`: the planner writes the steps, the user approves them (a terminal
// prompt, or --yes), then the agent loop works in the same Chrome as the rest of DeskPilot.
// Progress goes to stderr; the answer (or --json) to stdout. Ctrl-C stops cleanly.

export interface AgentArgs {
  goal: string;
  yes: boolean;
  json: boolean;
  plannerModel?: string;
  executorModel?: string;
  maxSteps?: number;
  /** Start on the tab the person is looking at instead of fresh background tabs. */
  currentTab?: boolean;
  /** Start on the one open tab whose title or address holds these words. */
  tab?: string;
}

export interface AgentDeps {
  /** The agent browser on the same Chrome as the rest of DeskPilot. */
  connectBrowser(config: Config): Promise<AgentBrowser>;
  /** Calls the handler on Ctrl-C; returns the unsubscribe. */
  onInterrupt(handler: () => void): () => void;
  env: NodeJS.ProcessEnv;
}

export function exitCodeForAgent(status: AgentStatus): number {
  switch (status) {
    case 'done':
      return EXIT.ok;
    case 'failed':
    case 'budget':
      return EXIT.failed;
    default:
      return EXIT.needsUser; // cancelled, refused, stopped: the user (or their rules) said no
  }
}

export async function runAgentCommand(flags: ConfigFlags, args: AgentArgs, io: Io, deps: AgentDeps): Promise<number> {
  const config = await loadConfig(flags, deps.env);
  const agent = wireAgent(config, {
    env: deps.env,
    plannerModel: args.plannerModel,
    executorModel: args.executorModel,
    maxSteps: args.maxSteps,
    connectBrowser: deps.connectBrowser,
  });
  if (!agent) {
    io.err(`deskpilot: ${NO_LLM_FOR_AGENT}\n`);
    return EXIT.failed;
  }
  for (const m of agent.missingSecrets) io.err(`warning: secret ${m} is not set in the environment, so the agent cannot use it\n`);

  let browser: AgentBrowser;
  try {
    browser = await agent.connectBrowser();
  } catch (e) {
    io.err(`deskpilot: ${errorMessage(e)}\n`);
    return EXIT.failed;
  }

  const controller = new AbortController();
  const off = deps.onInterrupt(() => {
    if (controller.signal.aborted) return;
    io.err('\nstopping… (the step in progress finishes first)\n');
    controller.abort();
  });
  let previewOnly = false;
  const progress = progressPrinter(io);
  try {
    const result = await runAgent({
      goal: args.goal,
      browser,
      models: agent.models,
      tools: agent.tools,
      options: agent.options,
      ...(args.currentTab ? { startTab: 'current' as const } : args.tab !== undefined ? { startTab: { named: args.tab } } : {}),
      signal: controller.signal,
      onEvent: progress,
      approve: async (plan) => {
        if (!args.yes && !io.interactive()) {
          previewOnly = true;
          io.out(args.json ? '' : planText(plan));
          return { approved: false };
        }
        io.err(planText(plan));
        if (args.yes) return { approved: true };
        let current = plan;
        let edited = false;
        for (;;) {
          const answer = (await io.ask('Run these steps? [y/N/e(dit)] ')).trim().toLowerCase();
          if (answer === 'y' || answer === 'yes') return edited ? { approved: true, plan: current } : { approved: true };
          if (answer !== 'e' && answer !== 'edit') return { approved: false };
          const next = await editPlan(current, io);
          if (next !== current) {
            current = next;
            edited = true;
          }
          io.err(planText(current));
        }
      },
      confirm: async (question) => {
        if (!io.interactive()) {
          io.err(`  ! declined, no terminal to ask: ${question}\n`);
          return false;
        }
        return /^y(es)?$/i.test((await io.ask(`  ${question} [y/N] `)).trim());
      },
    });
    report(result, args, io, previewOnly);
    return exitCodeForAgent(result.status);
  } finally {
    off();
    await browser.dispose().catch(() => undefined);
  }
}

// ---- output ----

export function planText(plan: AgentPlan): string {
  return `Plan: ${plan.message}\n${plan.steps.map((s, i) => `  ${i + 1}. ${s}\n`).join('')}`;
}

function progressPrinter(io: Io): (e: AgentEvent) => void {
  let steps = 0;
  return (e) => {
    switch (e.type) {
      case 'plan':
        steps = e.plan.steps.length;
        return;
      case 'step-start': {
        const again = e.attempt > 1 ? ` (attempt ${e.attempt})` : '';
        const label = e.kind === 'plan' ? `[${(e.stepIndex ?? 0) + 1}/${steps}] ${e.instruction}` : e.kind === 'correction' ? `[correction] ${e.instruction}` : '[finishing]';
        io.err(`${label}${again}\n`);
        return;
      }
      case 'output':
        if (e.command?.action === 'done') return;
        io.err(`  ${e.ok ? '✓' : '✗'} ${e.command ? describeCommand(e.command, { as: 'log', hideValue: e.intoPassword }) : 'no valid command'} — ${outcomeLine(e, 120)}\n`);
        return;
      case 'notice':
        if (e.audience === 'model') return; // the model's own bookkeeping (an unusable answer is on the ✗ line already)
        io.err(`  ! ${e.text}\n`);
        return;
      default:
        return;
    }
  };
}

function report(result: AgentResult, args: AgentArgs, io: Io, previewOnly: boolean): void {
  if (args.json) {
    const { status, answer, reason, plan, steps, commands, usage } = result;
    io.out(JSON.stringify({ status: previewOnly ? 'not_run' : status, answer, reason, plan, steps, commands, usage }, null, 2) + '\n');
  }
  if (previewOnly) {
    io.err('not run: approve the plan on a terminal, or run again with --yes\n');
    return;
  }
  const did = `${result.commands} command${result.commands === 1 ? '' : 's'}`;
  switch (result.status) {
    case 'done':
      if (!args.json) io.out(`${result.answer ?? ''}\n`);
      io.err(result.plan && isDirectAnswer(result.plan) ? 'answered from the page; nothing was run\n' : `done after ${did}\n`);
      return;
    case 'cancelled':
      io.err('cancelled: nothing was run\n');
      return;
    case 'stopped':
      io.err(`stopped after ${did}; the tabs the agent opened stay open\n`);
      return;
    default:
      io.err(`${result.status}: ${result.reason ?? 'the run ended early'} (after ${did})\n`);
  }
}

async function editPlan(plan: AgentPlan, io: Io): Promise<AgentPlan> {
  io.err('Edit the steps: Enter keeps a step, "-" removes it, any other text replaces it.\n');
  const steps: string[] = [];
  for (const [i, step] of plan.steps.entries()) {
    const a = (await io.ask(`  ${i + 1}. ${step}\n     > `)).trim();
    if (a === '') steps.push(step);
    else if (a !== '-') steps.push(a);
  }
  for (;;) {
    const a = (await io.ask(`  add step ${steps.length + 1} (Enter to finish): `)).trim();
    if (!a) break;
    steps.push(a);
  }
  const next = { ...plan, steps };
  const checked = AgentPlan.safeParse(next);
  if (!checked.success) {
    io.err(`That plan is not usable (${zodErrors(checked.error, next).map(formatFieldError).join('; ')}); keeping the previous one.\n`);
    return plan;
  }
  return checked.data;
}

// ---- the real process ----

export function defaultAgentDeps(): AgentDeps {
  return {
    env: process.env,
    // The same Chrome as the rest of DeskPilot: the configured endpoint, else DevToolsActivePort discovery.
    connectBrowser: connectAgentBrowser,
    onInterrupt: (handler) => {
      let presses = 0;
      const listener = () => {
        // A second Ctrl-C does not wait for the step in progress.
        if (++presses > 1) process.exit(130);
        handler();
      };
      process.on('SIGINT', listener);
      return () => void process.off('SIGINT', listener);
    },
  };
}
