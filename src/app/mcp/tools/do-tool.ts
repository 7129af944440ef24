import type { Envelope } from '../../../protocol/commands';
import type { PreparedBatch } from '../../../protocol/prepared-batch';
import type { ContextSnapshot } from '../../../protocol/context';
import { z } from 'zod';
import { pickChoice } from '../../../engine/planning/pick-choice';
import { confirmGate } from '../confirm-gate';
import { contextOnDevice, onDevice } from '../device-context';
import { defineTool, type McpContext } from '../define-tool';
import { confirm, text } from '../fields';
import type { HeldPlan, HeldPlans } from '../held-plans';
import { reportOutput } from '../report-output';
import type { ToolOutput } from '../tool-error';

// Plain words through DeskPilot's own planners, exactly as typed in the app: plan against a
// fresh snapshot, ask before anything that closes, run, remember the turn for follow-ups.

const MAX_TEXT = 4000;
const MAX_CHOICE_WORDS = 200;
const HOLD_MS = 5 * 60 * 1000;

const choice = z
  .union([
    z.number({ error: 'must be a number or words' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be 1 or more (options are numbered from 1)' }),
    text(MAX_CHOICE_WORDS),
  ])
  .optional()
  .describe(
    "The user's answer to DeskPilot's question: the number of one of the options it listed (1 first), or words only that option holds. " +
      'Call again with the same text and this; the option runs exactly as it was offered.',
  );

/** The options a question offered, by the words that asked it, each ready to run; per MCP session (its held plans). */
interface Offered {
  labels: string[];
  plans: HeldPlan[];
  at: number;
}
const offered = new WeakMap<HeldPlans, Map<string, Offered>>();
const offersOf = (ctx: McpContext) => {
  let m = offered.get(ctx.held);
  if (!m) offered.set(ctx.held, (m = new Map()));
  for (const [k, o] of m) if (Date.now() - o.at > HOLD_MS) m.delete(k);
  return m;
};
const offerKey = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

export const doTool = defineTool({
  name: 'do',
  title: 'Do it in plain words',
  description:
    'Carry out a request in plain words with DeskPilot\'s own planners (its offline matcher, else the LLM configured in DeskPilot), e.g. ' +
    '"chrome left and cursor right", "close all youtube tabs", "center terminal 1200x800", "code space". ' +
    'Follow-ups like "now put it on the right" refer to the last request. Closing tabs or apps asks the user first; ' +
    'when this client cannot ask, it refuses and says what to ask — then call again with the same text and confirm: true. ' +
    'When DeskPilot asks back with numbered options, ask the user, then call again with the same text and choice (the number or their words). ' +
    'Prefer the specific tools when you already know the exact tab or app.',
  input: {
    text: text(MAX_TEXT).describe('What the user wants, in their words.'),
    confirm,
    choice,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async handler(args, call) {
    const { ctx } = call;
    // Held per device: a yes for a plan on another device must not run one held for this desk.
    const heldKey = ctx.target ? `${args.text} @${ctx.target.id}` : args.text;
    const held = args.confirm ? ctx.held.take(heldKey) : null;
    const planned = held ?? (args.choice !== undefined ? chosen(ctx, heldKey, args.choice) : await plan(ctx, args.text, heldKey, call.signal));
    if ('output' in planned) return planned.output;
    const { batch, envelope } = planned;
    // The planner may have named another device (it saw every device's desk): asked and run there.
    const on = !ctx.target && envelope.device ? await contextOnDevice(ctx, envelope.device, call.signal) : ctx;
    const refusal = await confirmGate(batch, { ...call, ctx: on }, held !== null, 'call do again with the same text and confirm: true');
    if (refusal) {
      if (refusal.data.status === 'needs_confirmation') ctx.held.hold(heldKey, { batch, envelope, ...(planned.snapshot ? { snapshot: planned.snapshot } : {}) });
      await remember(ctx, args.text, envelope, `not run: ${refusal.text}`);
      return on === ctx ? refusal : onDevice(refusal, on);
    }
    // A question is answered from the desks it was planned with (with sync: every device's).
    const asks = planned.snapshot?.devices !== undefined && batch.commands.some((c) => c.type === 'query');
    const report = asks ? await ctx.desk.exec(envelope, { snapshot: planned.snapshot }) : await on.desk.run(batch);
    const out = reportOutput(report, false);
    await remember(ctx, args.text, envelope, (out.data.results as Array<{ message: string }>).map((r) => r.message).join('; ') || String(out.data.status));
    return on === ctx ? out : onDevice(out, on);
  },
});

/** With sync set up, this desk with every other device's published one (the planner may name a device). */
async function withDevices(ctx: McpContext): Promise<ContextSnapshot | undefined> {
  if (!ctx.devices || ctx.target) return undefined;
  const devices = ctx.devices.now()?.devicesContext();
  if (!devices?.others.length) return undefined;
  return { ...(await ctx.desk.snapshot({ summaries: false })), devices };
}

/** The option the answer picks among those the question for these words offered; or what to say instead. */
function chosen(ctx: McpContext, key: string, answer: number | string): HeldPlan | { output: ToolOutput } {
  const offers = offersOf(ctx);
  const asked = offers.get(offerKey(key));
  if (!asked) {
    return { output: { text: 'Nothing was done: no question for these words is waiting (or it expired). Call do again without choice.', data: { status: 'expired' } } };
  }
  const pick = pickChoice(String(answer), asked.labels);
  if (pick.kind === 'none') {
    const options = asked.labels.map((c, i) => `${i + 1}) ${c}`).join('; ');
    return { output: { text: `Nothing was done: ${pick.why}. Options: ${options}.`, data: { status: 'clarification', question: pick.why, choices: asked.labels } } };
  }
  offers.delete(offerKey(key));
  return asked.plans[pick.index]!;
}

async function plan(ctx: McpContext, text: string, key: string, signal?: AbortSignal): Promise<{ batch: PreparedBatch; envelope: Envelope; snapshot?: ContextSnapshot } | { output: ToolOutput }> {
  const snapshot = await withDevices(ctx);
  const planned = await ctx.desk.plan(text, { mode: 'auto', ...(snapshot ? { snapshot } : {}), ...(signal ? { signal } : {}) });
  const { outcome } = planned;
  const note = outcome.note ? ` (Note: ${outcome.note}.)` : '';
  if (outcome.envelope.needs_clarification) {
    const question = outcome.envelope.clarification_reason ?? 'Which one do you mean?';
    const choices = planned.choices.map((c) => c.label);
    await remember(ctx, text, outcome.envelope, `asked: ${question}`);
    const options = choices.length ? ` Options: ${choices.map((c, i) => `${i + 1}) ${c}`).join('; ')}.` : '';
    if (choices.length) {
      const plans = planned.choices.map((c, i) => ({ batch: c.batch, envelope: outcome.candidates[i]!.envelope, ...(snapshot ? { snapshot } : {}) }));
      offersOf(ctx).set(offerKey(key), { labels: choices, plans, at: Date.now() });
    }
    const how = choices.length ? 'call do again with the same text and choice: the number (or their words)' : 'call do again with words that settle it';
    return {
      output: {
        text: `Nothing was done: DeskPilot asks: ${question}${options}${note} Ask the user, then ${how}.`,
        data: { status: 'clarification', question, choices, planner: outcome.planner },
      },
    };
  }
  if (!planned.batch) return { output: { text: `Nothing to do.${note}`, data: { status: 'done', results: [], planner: outcome.planner } } };
  return { batch: planned.batch, envelope: outcome.envelope, ...(snapshot ? { snapshot } : {}) };
}

async function remember(ctx: McpContext, text: string, envelope: Envelope, outcome: string): Promise<void> {
  await ctx.desk.remember({ at: Date.now(), text, envelope, outcome: outcome.slice(0, 2000) }).catch(() => undefined);
}

export const DO_TOOLS = [doTool];
