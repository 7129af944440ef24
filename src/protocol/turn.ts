import { z } from 'zod';

// One remembered turn as it crosses a boundary (the service socket, turns.json), with the same
// limits everywhere: a turn stored longer than what the socket accepts once broke every plan
// answered through the service for as long as it was remembered (issue 24, D5).

export const MAX_TURN_TEXT = 4000;
export const MAX_TURN_OUTCOME = 20_000;

const text = (max: number) => z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });

export const TurnSchema = z.strictObject({
  at: z.number({ error: 'must be a number (ms since 1970)' }),
  text: text(MAX_TURN_TEXT),
  envelope: z.unknown(),
  outcome: text(MAX_TURN_OUTCOME),
});

const ELLIPSIS = '…';
const cut = (s: string, max: number) => (s.length <= max ? s : s.slice(0, max - ELLIPSIS.length) + ELLIPSIS);

/** The turn cut to the limits (what was said keeps its start, which is what a follow-up refers to). */
export function boundTurn<T extends { text: string; outcome: string }>(turn: T): T {
  return { ...turn, text: cut(turn.text, MAX_TURN_TEXT), outcome: cut(turn.outcome, MAX_TURN_OUTCOME) };
}
