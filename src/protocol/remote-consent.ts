import { z } from 'zod';

// A question to this desk's user: another device asked for something that closes things here
// (tabs, apps, an undo that may close what a batch opened). Held by the host of the desk until
// the user answers (`deskpilot devices approve|deny ID`, the app's dialog) or the command's TTL
// passes; nothing runs without a yes. Crosses the service socket, so it is a schema.

const text = z.string().max(2000);

export const ConsentRequest = z.strictObject({
  /** The command row's id: what `approve` and `deny` name. */
  id: z.string().min(1).max(200),
  /** The device that sent it, as this desk's trust list names it. */
  from: z.strictObject({ id: z.string().min(1).max(200), name: text }),
  /** Who asked on the sender, as the sender says: shown, never taken as consent. */
  asked_by: text.nullable(),
  /** This device's name ("not confirmed on <this>"). */
  on: text,
  /** What would close, one entry per command that needs a yes. */
  items: z.array(z.strictObject({ summary: text, targets: z.array(text).max(1000) })).max(200),
  /** Every command of the batch in words, in order. */
  plan: z.array(text).max(200),
  arrived_at: z.string(),
  /** After this (ISO 8601) the command is reported as not confirmed and never runs. */
  deadline: z.string(),
});
export type ConsentRequest = z.infer<typeof ConsentRequest>;

export const ConsentAnswer = z.enum(['yes', 'no', 'expired']);
export type ConsentAnswer = z.infer<typeof ConsentAnswer>;
