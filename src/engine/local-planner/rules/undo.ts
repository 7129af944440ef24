import type { ClauseResult } from '../result';
import { ask, CONFIDENCE, ok } from '../result';
import { NUMBER_PATTERN, parseNumber } from '../text';

// "undo", "undo that", "put it back", "undo the last 2 changes", "undo twice".

const UNDO_VERB = '(?:undo|revert|reverse|roll back|rollback)';
const STEP_NOUN = '(?:changes?|moves?|steps?|actions?|things?|ones?|commands?|times?)';
const N = `(${NUMBER_PATTERN})`;

const ONE = [
  new RegExp(`^${UNDO_VERB}(?: (?:that|it|this|what you just did|what you did|the change|my last|the last|last)(?: ${STEP_NOUN})?)?(?: again)?$`),
  /^(?:put|move|set) (?:it|that|them|everything|things|it all|the windows?|all|stuff) back(?: (?:where|how|as) (?:it|they|that) (?:was|were))?(?: again)?$/,
  /^(?:restore|go back to) (?:the )?(?:previous|last|old|earlier) (?:layout|positions?|arrangement|windows?)$/,
  /^take (?:that|it) back$/,
  /^never ?mind,? undo(?: that| it)?$/,
];

const MANY = [
  new RegExp(`^${UNDO_VERB} (?:the )?(?:last |previous )?${N}(?: ${STEP_NOUN})?$`),
  new RegExp(`^${UNDO_VERB}(?: that| it)? ${N}$`),
  new RegExp(`^${UNDO_VERB} (?:the )?(?:last |previous )?${N} (?:${STEP_NOUN}|batches)(?: back)?$`),
];

const ALL = new RegExp(`^${UNDO_VERB} (?:everything|all(?: of it| of them| changes)?|all the changes|it all)$`);

/**
 * Every pattern above is anchored at the start, on one of these first words: a clause that starts
 * otherwise is no undo, and the patterns are not even compiled (a cold CLI call pays for that).
 */
const FIRST_WORDS = /^(?:undo|revert|reverse|roll|put|move|set|restore|go|take|never)/;

export function undoRule(clause: string): ClauseResult | null {
  if (!FIRST_WORDS.test(clause)) return null;
  if (ONE.some((re) => re.test(clause))) return ok({ type: 'undo' });
  if (ALL.test(clause)) return ask('How many changes should I undo? Say e.g. "undo the last 3 changes".', CONFIDENCE.ambiguous);
  for (const re of MANY) {
    const m = re.exec(clause);
    if (!m) continue;
    const n = parseNumber(m[1]!);
    if (n === null || n < 1 || n > 50) return null;
    return ok(n === 1 ? { type: 'undo' } : { type: 'undo', steps: n });
  }
  return null;
}
