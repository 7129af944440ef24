import type { Command } from '../../protocol/commands';

// What one clause of a sentence came to. A rule returns null when the clause is not its kind
// of sentence at all, so that the next rule (or another way of splitting the sentence) can try.

export type ClauseResult =
  | { kind: 'ok'; commands: Command[] }
  /** Understood, but the planner must ask: the target is ambiguous, missing or unavailable. */
  | { kind: 'ask'; reason: string; confidence: number };

/** How sure the matcher is when it has to ask, by why it asks. */
export const CONFIDENCE = {
  ambiguous: 0.5,
  unavailable: 0.5,
  noMatch: 0.4,
  unclearReference: 0.3,
  notUnderstood: 0,
} as const;

export const ok = (...commands: Command[]): ClauseResult => ({ kind: 'ok', commands });
export const ask = (reason: string, confidence: number = CONFIDENCE.ambiguous): ClauseResult => ({ kind: 'ask', reason, confidence });
