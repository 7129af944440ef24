import type { Envelope } from '../../../protocol/commands';
import type { PreparedBatch } from '../../../protocol/prepared-batch';
import type { ContextSnapshot } from '../../../protocol/context';
import { z } from 'zod';
import { pickChoice } from '../../../engine/planning/pick-choice';
import { gated } from '../confirm-gate';
import { contextOnDevice } from '../device-context';
import { defineTool, type McpContext } from '../define-tool';
import { confirmFields, text } from '../fields';
import type { HeldPlan } from '../held-plans';
import { reportOutput } from '../report-output';
import type { ToolOutput } from '../tool-error';

// Plain words through DeskPilot's own planners, exactly as typed in the app: plan against a
// fresh snapshot, ask before anything that closes, run, remember the turn for follow-ups.

const MAX_TEXT = 4000;
const MAX_CHOICE_WORDS = 200;

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

export const doTool = defineTool({
  name: 'do',
  title: 'Do it in plain words',
  description:
    'Carry out a request in plain words with DeskPilot\'s own planners (its offline matcher, else the LLM configured in DeskPilot), e.g. ' +
    '"chrome left and cursor right", "close all youtube tabs", "center terminal 1200x800", "code space". ' +
    'Follow-ups like "now put it on the right" refer to the last request. Closing tabs or apps asks the user first; ' +
    'when this client cannot ask, it answers with exactly what would run and a confirm_token — ask the user, then call again with the same text and that confirm_token. ' +
    'When DeskPilot asks back with numbered options, ask the user, then call again with the same text and choice (the number or their words). ' +
    'Prefer the specific tools when you already know the exact tab or app.',
  input: {
    text: text(MAX_TEXT).describe('What the user wants, in their words.'),
    ...confirmFields,
    choice,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async handler(args, call) {
    const { ctx } = call;
    // Offered per device: an answer for a question about another device must not pick one asked for this desk.
    const key = ctx.target ? `${args.text} @${ctx.target.id}` : args.text;
    return gated(call, {
      tool: 'do',
      args,
      prepare: async () => {
        const planned = args.choice !== undefined ? chosen(ctx, key, args.choice) : await plan(ctx, args.text, key, call.signal);
        if ('output' in planned) return planned;
        // The planner may have named another device (it saw every device's desk): asked and run there.
        const on = !ctx.target && planned.envelope.device ? await contextOnDevice(ctx, planned.envelope.device, call.signal) : ctx;
        return { ...planned, on };
      },
      contextFor: async (held) => (!ctx.target && held.device ? contextOnDevice(ctx, held.device.id, call.signal) : ctx),
      run: async (ready, on) => {
        // A question is answered from the desks it was planned with (with sync: every device's).
        const asks = ready.snapshot?.devices !== undefined && ready.batch.commands.some((c) => c.type === 'query');
        return reportOutput(asks ? await ctx.desk.exec(ready.envelope, { snapshot: ready.snapshot }) : await on.desk.run(ready.batch), false);
      },
      after: async (ready, out, ran) => {
        if (!ready.envelope) return;
        const what = ran ? (out.data.results as Array<{ message: string }>).map((r) => r.message).join('; ') || String(out.data.status) : `not run: ${out.text}`;
        await remember(ctx, args.text, ready.envelope, what);
      },
    });
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
  const asked = ctx.held.get(key);
  if (!asked) {
    return { output: { text: 'Nothing was done: no question for these words is waiting (or it expired). Call do again without choice.', data: { status: 'expired' } } };
  }
  const pick = pickChoice(String(answer), asked.labels);
  if (pick.kind === 'none') {
    const options = asked.labels.map((c, i) => `${i + 1}) ${c}`).join('; ');
    return { output: { text: `Nothing was done: ${pick.why}. Options: ${options}.`, data: { status: 'clarification', question: pick.why, choices: asked.labels } } };
  }
  ctx.held.drop(key);
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
      ctx.held.offer(key, { labels: choices, plans });
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
