import { z } from 'zod';
import { compactContext } from '../../../engine/planning/compact-context';
import { MAX_QUESTION_LENGTH } from '../../../protocol/commands';
import type { ContextSnapshot } from '../../../protocol/context';
import type { PreparedBatch } from '../../../protocol/prepared-batch';
import { defineTool, type McpContext } from '../define-tool';
import { gated } from '../confirm-gate';
import { confirmFields, summaries, text } from '../fields';
import { batchOf, reportOutput } from '../report-output';
import { DesktopOutput, ReportOutput } from '../read-shapes';
import { appsData, snapshotHeader, tabRow } from '../tab-text';

// The whole desk at once: the snapshot, questions about it, and undo.

/** The snapshot as the planner reads it, under an id the tab tools accept. */
export async function desktopText(ctx: McpContext, withSummaries: boolean): Promise<{ snap: ContextSnapshot; id: string; text: string }> {
  const snap = await ctx.desk.snapshot({ summaries: withSummaries });
  const id = ctx.snapshots.put(snap);
  return { snap, id, text: `${snapshotHeader(id, `taken ${snap.taken_at}`)}\n${compactContext(snap)}` };
}

export const desktopSnapshot = defineTool({
  name: 'desktop_snapshot',
  title: 'Desktop snapshot',
  description:
    'The whole desk in a few lines: monitors (bounds and work area [left,top,right,bottom]), running apps and their windows, installed apps, ' +
    'Chrome tabs (index, * active, window, site, "title") and presets. Returns a snapshot_id to pass with tab indices from it.',
  input: { summaries },
  output: DesktopOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    const { snap, id, text } = await desktopText(ctx, args.summaries ?? false);
    const down = Object.fromEntries(Object.entries(snap.sources).filter(([, s]) => !s.ok).map(([k, s]) => [k, s.message]));
    return {
      text,
      data: { snapshot_id: id, taken_at: snap.taken_at, ...appsData(snap), tabs: snap.tabs.map((t) => tabRow(t)), presets: snap.presets, ...(Object.keys(down).length ? { unavailable: down } : {}) },
    };
  },
});

export const query = defineTool({
  name: 'query',
  title: 'Ask about the desk',
  description:
    'Answer a question about the open tabs, apps, windows, monitors or presets ("how many tabs are open?", "which tabs are about flights?"). ' +
    'Countable questions are answered here; open ones by the LLM configured in DeskPilot, if any. Changes nothing.',
  input: {
    question: text(MAX_QUESTION_LENGTH).describe('The question, in plain words.'),
  },
  output: ReportOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, { ctx }) {
    return reportOutput(await ctx.desk.exec({ type: 'query', question: args.question }));
  },
});

export const undo = defineTool({
  name: 'undo',
  title: 'Undo the last actions',
  description:
    'Put windows and tabs back as they were before the last action(s) (moves, focus, presets, tab changes); closed tabs reopen, and tabs an action opened close again. ' +
    "Because it can close tabs, it asks the user first (unless they turned asking about closing tabs off); when this client cannot ask, it answers with what it would do and a confirm_token — ask the user, then call again with the same steps and that confirm_token. " +
    'Closed apps cannot come back.',
  input: {
    steps: z
      .number({ error: 'must be a positive integer' })
      .int({ error: 'must be a positive integer' })
      .min(1, { error: 'must be at least 1' })
      .max(50, { error: 'must be at most 50' })
      .optional()
      .describe('How many earlier actions to undo (default 1).'),
    ...confirmFields,
  },
  // It closes the tabs an undone action opened: destructive, as close_tabs is.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, call) {
    const steps = args.steps ?? 1;
    return gated(call, {
      tool: 'undo',
      args,
      prepare: async () => {
        const batch = batchOf(await call.ctx.desk.prepare({ type: 'undo', ...(args.steps ? { steps: args.steps } : {}) }));
        return { batch, ask: withUndoQuestion(batch, steps) };
      },
    });
  },
});

/**
 * The batch with its undo marked as closing tabs: which tabs it would close is only known when it
 * runs (the actions' undo records), so the question says what it may do, under the close_tab setting.
 */
function withUndoQuestion(batch: PreparedBatch, steps: number): PreparedBatch {
  const index = batch.commands.findIndex((c) => c.type === 'undo');
  if (index < 0) return batch;
  const what = steps === 1 ? 'the last action' : `the last ${steps} actions`;
  const summary = `undo ${what}: windows and tabs go back, which may close tabs that ${steps === 1 ? 'it' : 'they'} opened`;
  return { ...batch, confirm: [...batch.confirm, { index, kind: 'close_tab', summary, targets: [] }] };
}
