import type { Command } from '../../protocol/commands';

// What one clause of a sentence came to. A rule returns null when the clause is not its kind
// of sentence at all, so that the next rule (or another way of splitting the sentence) can try.

/**
 * One answer to a question the matcher asks: a concrete thing it found (a tab, an app, a
 * preset, a monitor) and the commands this clause comes to if the user picks it.
 */
export interface Choice {
  /** Short and distinct among its siblings: `tab 2 "GitHub - a" (github.com)`, `Cursor`. */
  label: string;
  commands: Command[];
}

export type ClauseResult =
  | { kind: 'ok'; commands: Command[] }
  /**
   * Understood, but the planner must ask: the target is ambiguous, missing or unavailable.
   * `choices`: when the question is a choice between things already found, each of them.
   * `backendDown`: there is nothing to choose, only a backend the clause needs (Chrome, the
   * window backend, presets) is down — a failure to report, not a question (exit 1, not 3).
   */
  | { kind: 'ask'; reason: string; confidence: number; choices?: Choice[]; backendDown?: true };

export type Ask = Extract<ClauseResult, { kind: 'ask' }>;

/** How sure the matcher is when it has to ask, by why it asks. */
export const CONFIDENCE = {
  ambiguous: 0.5,
  unavailable: 0.5,
  noMatch: 0.4,
  unclearReference: 0.3,
  notUnderstood: 0,
} as const;

/** As many buttons as the question names candidates (messages.ts lists up to 8). */
export const MAX_CHOICES = 8;

export const ok = (...commands: Command[]): ClauseResult => ({ kind: 'ok', commands });
export const ask = (reason: string, confidence: number = CONFIDENCE.ambiguous): ClauseResult => ({ kind: 'ask', reason, confidence });

/**
 * A question offering these options. An option is kept only when it came to commands (one
 * that would itself ask is no answer); labels are made distinct by dropping repeats.
 */
export function askChoosing(
  reason: string,
  options: ReadonlyArray<{ label: string; result: ClauseResult | null }>,
  confidence: number = CONFIDENCE.ambiguous,
): ClauseResult {
  const choices: Choice[] = [];
  for (const o of options) {
    if (o.result?.kind !== 'ok' || o.result.commands.length === 0) continue;
    if (choices.some((c) => c.label === o.label)) continue;
    choices.push({ label: o.label, commands: o.result.commands });
  }
  return choices.length ? { kind: 'ask', reason, confidence, choices } : { kind: 'ask', reason, confidence };
}

/** This question (if it is one), offering these options. */
export function offer(r: ClauseResult, options: ReadonlyArray<{ label: string; result: ClauseResult | null }>): ClauseResult {
  return r.kind === 'ask' ? askChoosing(r.reason, options, r.confidence) : r;
}

/** The same question with other choices (or none). */
export function withChoices(r: ClauseResult, choices: Choice[] | undefined): ClauseResult {
  if (r.kind !== 'ask') return r;
  const { choices: _old, ...rest } = r;
  return choices?.length ? { ...rest, choices } : rest;
}

/**
 * Several results that run one after another (the parts of "chrome and slack left", the
 * clauses of a sentence): all understood → their commands in order; otherwise the first
 * question. That question keeps its choices only when it is the only one, every other part
 * came to commands, and each choice then carries those commands in their place.
 */
export function sequence(results: readonly ClauseResult[]): ClauseResult {
  const asks = results.filter((r): r is Ask => r.kind === 'ask');
  if (asks.length === 0) return ok(...results.flatMap((r) => (r.kind === 'ok' ? r.commands : [])));
  const first = asks[0]!;
  if (asks.length > 1 || !first.choices) return withChoices(first, undefined);
  return withChoices(first, expandChoices(results, first));
}

/** Each of `asking`'s choices with the commands of the other (understood) results around it. */
export function expandChoices(results: readonly ClauseResult[], asking: Ask): Choice[] {
  const at = results.indexOf(asking);
  if (at < 0 || results.some((r, i) => i !== at && r.kind !== 'ok')) return [];
  return (asking.choices ?? []).map((choice) => ({
    label: choice.label,
    commands: results.flatMap((r, i) => (i === at ? choice.commands : r.kind === 'ok' ? r.commands : [])),
  }));
}
