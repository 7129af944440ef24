import { itemsToConfirm, type PreparedBatch } from '../../protocol/prepared-batch';
import type { ToolCall } from './define-tool';
import type { ToolOutput } from './tool-error';

// Closing tabs or apps waits for the user's yes, as in the app: asked through the client
// (elicitation) when it can; otherwise refused, with the question the model must put to the
// user and how to call again once they agreed. config.json can turn it off per kind.

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * null: go ahead. Otherwise what to answer instead of running: the user said no, or the
 * client cannot ask and the caller did not pass confirm: true.
 * `retry` completes "If they agree, …", e.g. "call close_tabs again with the same arguments and confirm: true".
 */
export async function confirmGate(batch: PreparedBatch, call: ToolCall, confirmed: boolean, retry: string): Promise<ToolOutput | null> {
  const items = itemsToConfirm(batch, await call.ctx.confirmPolicy());
  if (items.length === 0) return null;
  const summaries = items.map((i) => i.summary);
  // The device acted on has nobody to ask, maybe: the question is put here, naming it.
  const where = call.ctx.target ? `, on "${call.ctx.target.name}",` : '';
  const consent = await call.ask(`DeskPilot is about to${where}:\n${summaries.map((s) => `• ${s}`).join('\n')}\nAllow this?`);
  if (consent === 'yes') return null;
  if (consent === 'no') {
    return { text: `Cancelled: the user said no. Nothing was done (${summaries.join('; ')}).`, data: { status: 'cancelled', declined: summaries } };
  }
  if (confirmed) return null;
  return {
    isError: true,
    text: `Not done: this needs the user's yes first. Ask the user: "${call.ctx.target ? `On ${call.ctx.target.name}: ` : ''}${summaries.map(sentence).join('; ')}?" If they agree, ${retry}.`,
    data: { status: 'needs_confirmation', needs_confirmation: summaries },
  };
}
