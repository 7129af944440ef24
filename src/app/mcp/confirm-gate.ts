import type { Envelope } from '../../protocol/commands';
import { CONFIRM_TOKEN_TTL_MS, type HeldConfirm } from '../../protocol/confirm-token';
import type { ContextSnapshot } from '../../protocol/context';
import { itemsToConfirm, type PreparedBatch } from '../../protocol/prepared-batch';
import type { McpContext } from './call-context';
import type { ToolCall } from './define-tool';
import { deskChange } from './desk-changed';
import { onDevice } from './device-context';
import { reportOutput } from './report-output';
import { ToolError, type ToolOutput } from './tool-error';

// One confirmation protocol for every tool that closes something (issue 29.2), as in the app:
// asked through the client (elicitation) when it can. Otherwise the first call answers with
// exactly what would run and a confirm_token naming that prepared batch (held by the warm service
// when one runs, else by this process; 2 minutes, once); the call that brings the token back runs
// that batch and nothing else, unless the desk changed so that it no longer applies. confirm:
// true alone runs nothing. config.json can turn asking off per kind.

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A prepared batch ready to run, with what it was planned from (`do`) and where it runs. */
export interface Ready {
  batch: PreparedBatch;
  /** The batch whose confirm items are put to the user, when not the one run (undo marks what it may close). */
  ask?: PreparedBatch;
  envelope?: Envelope;
  snapshot?: ContextSnapshot;
  /** Where it runs, when not the call's own context (`do`: the device its plan named). */
  on?: McpContext;
}

export interface Gate {
  /** The tool's name, as the client calls it. */
  tool: string;
  /** The call's arguments, with confirm and confirm_token. */
  args: { confirm?: boolean | undefined; confirm_token?: string | undefined } & Record<string, unknown>;
  /** The first call: the batch to show (or an answer instead, e.g. `do`'s question back). */
  prepare(): Promise<Ready | { output: ToolOutput }>;
  /** Runs it (default: on its desk, the report as the answer). */
  run?(ready: Ready, on: McpContext): Promise<ToolOutput>;
  /** The context a held batch runs in (`do`: the device its plan named); default the call's. */
  contextFor?(held: HeldConfirm): Promise<McpContext>;
  /** Told every outcome (`do` remembers the turn). */
  after?(ready: Ready, out: ToolOutput, ran: boolean): Promise<void>;
}

/** Prepares, asks (or hands out a token, or redeems one), runs: the whole confirmation protocol. */
export async function gated(call: ToolCall, gate: Gate): Promise<ToolOutput> {
  const { confirm, confirm_token: token, ...rest } = gate.args;
  // The device the call names is one of its arguments (the registry takes it out of `args`).
  const args = await argsDigest({ ...rest, device: call.ctx.target?.id ?? null });
  if (token !== undefined) return redeem(call, gate, token, args);

  const ready = await gate.prepare();
  if ('output' in ready) return ready.output;
  const on = ready.on ?? call.ctx;
  const items = itemsToConfirm(ready.ask ?? ready.batch, await call.ctx.confirmPolicy());
  if (items.length === 0) return runIt(gate, ready, on, call.ctx, call.signal);
  const summaries = items.map((i) => i.summary);
  // The device acted on has nobody to ask, maybe: the question is put here, naming it.
  const where = on.target ? `, on "${on.target.name}",` : '';
  const consent = await call.ask(`DeskPilot is about to${where}:\n${summaries.map((s) => `• ${s}`).join('\n')}\nAllow this?`);
  if (consent === 'yes') return runIt(gate, ready, on, call.ctx, call.signal);
  if (consent === 'no') {
    const out = { text: `Cancelled: the user said no. Nothing was done (${summaries.join('; ')}).`, data: { status: 'cancelled', declined: summaries } };
    await gate.after?.(ready, out, false);
    return wrap(out, on, call.ctx);
  }
  const held = await call.ctx.tokens.hold({
    tool: gate.tool,
    args,
    device: on.target ?? null,
    batch: ready.batch,
    ...(ready.envelope ? { envelope: ready.envelope } : {}),
    ...(ready.snapshot ? { snapshot: ready.snapshot } : {}),
  });
  const minutes = CONFIRM_TOKEN_TTL_MS / 60_000;
  const wouldRun = ready.batch.plan.map((p) => p.summary);
  const out: ToolOutput = {
    isError: true,
    text:
      (confirm === true ? 'confirm: true alone runs nothing: the yes comes back as the confirm_token below. ' : '') +
      `Not done yet: this needs the user's yes. It would:\n${wouldRun.map((s) => `• ${s}`).join('\n')}\n` +
      `Ask the user: "${on.target ? `On ${on.target.name}: ` : ''}${summaries.map(sentence).join('; ')}?" ` +
      `If they agree, call ${gate.tool} again with the same arguments and confirm_token: "${held.token}" — it runs exactly this, once, within ${minutes} minutes. If not, do nothing.`,
    data: { status: 'needs_confirmation', needs_confirmation: summaries, would_run: wouldRun, confirm_token: held.token, expires_at: held.expires_at },
  };
  await gate.after?.(ready, out, false);
  return wrap(out, on, call.ctx);
}

/** The confirming call: the held batch, if the token is this call's and the desk still fits it. */
async function redeem(call: ToolCall, gate: Gate, token: string, args: string): Promise<ToolOutput> {
  const again = `Call ${gate.tool} again without confirm_token to see what would run now, and ask the user again.`;
  const held = await call.ctx.tokens.take(token);
  if (!held) throw new ToolError(`Nothing was done: confirm_token is unknown, used or expired (a token works once, within ${CONFIRM_TOKEN_TTL_MS / 60_000} minutes). ${again}`, 'confirm_token_unknown');
  if (held.tool !== gate.tool || held.args !== args) {
    const what = held.tool === gate.tool ? 'other arguments' : `${held.tool}, not ${gate.tool}`;
    throw new ToolError(`Nothing was done: that confirm_token was given for ${what}; pass it with exactly the arguments of the call that gave it. ${again}`, 'invalid_argument');
  }
  const on = gate.contextFor ? await gate.contextFor(held) : call.ctx;
  if ((held.device?.id ?? null) !== (on.target?.id ?? null)) {
    const name = (d: { name: string } | null | undefined) => (d ? `"${d.name}"` : 'this computer');
    throw new ToolError(`Nothing was done: that confirm_token is for ${name(held.device)}, not ${name(on.target)}. ${again}`, 'invalid_argument');
  }
  const change = await deskChange(on.desk, held.batch);
  if (change) throw new ToolError(`Nothing was done: the desk changed since the user was asked: ${change}. ${again}`, 'desk_changed');
  const ready: Ready = { batch: held.batch, ...(held.envelope ? { envelope: held.envelope } : {}), ...(held.snapshot ? { snapshot: held.snapshot } : {}), on };
  return runIt(gate, ready, on, call.ctx, call.signal);
}

async function runIt(gate: Gate, ready: Ready, on: McpContext, ctx: McpContext, signal?: AbortSignal): Promise<ToolOutput> {
  // The client cancelled while this was being prepared (a plan, a question): nothing starts.
  if (signal?.aborted) throw new ToolError('Cancelled: the call was cancelled before anything ran; nothing was done.', 'cancelled');
  const out = gate.run ? await gate.run(ready, on) : reportOutput(await on.desk.run(ready.batch));
  await gate.after?.(ready, out, true);
  return wrap(out, on, ctx);
}

/** An answer for another device than the call's says where (the call's own is said by the registry). */
const wrap = (out: ToolOutput, on: McpContext, ctx: McpContext) => (on === ctx ? out : onDevice(out, on));

/** The arguments as one digest: the same arguments in any key order give the same. */
async function argsDigest(args: Record<string, unknown>): Promise<string> {
  const stable = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(stable) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, stable((v as Record<string, unknown>)[k])])) : v;
  const hash = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(stable(args))));
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
