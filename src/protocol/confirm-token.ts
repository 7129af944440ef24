import { z } from 'zod';
import { Envelope } from './commands';
import { ContextSnapshot } from './context';
import { PreparedBatch } from './prepared-batch';

// One confirmation protocol for every tool that closes something (issue 29.2): the first call
// answers with what would run and a confirm_token naming that prepared batch; the confirming
// call passes the token and runs exactly that batch. The batch is held by the warm service when
// one runs (so an MCP client that starts a new server per call can confirm), else by the MCP
// process. Tokens are short-lived, work once, and name the batch's content.

export const CONFIRM_TOKEN_TTL_MS = 2 * 60 * 1000;

export const ConfirmToken = z
  .string({ error: 'must be a string' })
  .trim()
  .regex(/^ct_[A-Za-z0-9_-]{22}\.[0-9a-f]{12}$/, { error: 'is not a confirm_token DeskPilot gave (they look like "ct_…"); call the tool without it to get one' });

/** What a token holds: the batch, and what it was prepared for (the tool, its arguments, the device). */
export const HeldConfirm = z.strictObject({
  tool: z.string().min(1).max(64),
  /** A digest of the call's other arguments: the confirming call must pass the same. */
  args: z.string().min(1).max(128),
  /** The device it runs on; null for this desk. */
  device: z.strictObject({ id: z.string().min(1).max(200), name: z.string().max(200) }).nullable(),
  batch: PreparedBatch,
  /** `do`: the request as planned (recorded with the turn). */
  envelope: Envelope.optional(),
  /** `do`: what it was planned against when that was more than this desk (every device's). */
  snapshot: ContextSnapshot.optional(),
});
export type HeldConfirm = z.infer<typeof HeldConfirm>;

export const HeldToken = z.strictObject({ token: z.string(), expires_at: z.string() });
export type HeldToken = z.infer<typeof HeldToken>;
