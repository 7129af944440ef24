// The answer to a question with numbered choices ("Which tab: 1 … or 2 …?"), typed in the
// terminal or passed to the MCP `do` tool: a number ("2", "#2", "2)", "option 2"), an ordinal
// ("the second one", "last"), or words that only one choice's label holds ("the r/node one",
// "gmail", "the app"). Anything else picks nothing, so that nothing is guessed.

export type Pick = { kind: 'picked'; index: number } | { kind: 'none'; why: string };

const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  '1st': 1, '2nd': 2, '3rd': 3, '4th': 4, '5th': 5, '6th': 6, '7th': 7, '8th': 8, '9th': 9, '10th': 10,
};

/** Words that say "that one" rather than which. */
const FILLER = new Set(['the', 'a', 'an', 'one', 'that', 'this', 'please', 'pls', 'i', 'mean', 'meant', 'want', 'option', 'choice', 'number', 'no', 'it', 'is', 'its', 'go', 'with', 'take', 'pick']);

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The number said, 1-based; null when the answer is not a number or ordinal alone. */
function numberOf(answer: string, count: number): number | null {
  const all = words(answer);
  // "one" alone is the number; in "the second one", "that one" it only says "choice".
  if (all.length === 1 && all[0] === 'one') return 1;
  const core = all.filter((w) => !FILLER.has(w));
  if (core.length !== 1) return null;
  const w = core[0]!;
  if (/^\d+$/.test(w)) return Number(w);
  if (w === 'last') return count;
  return Object.hasOwn(ORDINALS, w) ? ORDINALS[w]! : null;
}

/** Which of `labels` the answer picks. `labels` are the choices in the order they were shown (1 first). */
export function pickChoice(answer: string, labels: readonly string[]): Pick {
  const text = answer.trim();
  if (!text) return { kind: 'none', why: 'no answer' };
  const n = numberOf(text.replace(/^#/, ''), labels.length);
  if (n !== null) {
    return n >= 1 && n <= labels.length ? { kind: 'picked', index: n - 1 } : { kind: 'none', why: `there is no choice ${n}; say a number from 1 to ${labels.length}` };
  }
  const said = words(text).filter((w) => !FILLER.has(w));
  if (!said.length) return { kind: 'none', why: `say a number from 1 to ${labels.length}` };
  const fits = labels.flatMap((label, i) => {
    const have = words(label);
    return said.every((w) => have.some((h) => h === w || (w.length >= 3 && h.startsWith(w)))) ? [i] : [];
  });
  if (fits.length === 1) return { kind: 'picked', index: fits[0]! };
  if (fits.length === 0) return { kind: 'none', why: `"${text}" is none of the choices; say a number from 1 to ${labels.length}` };
  return { kind: 'none', why: `"${text}" fits choices ${fits.map((i) => i + 1).join(' and ')}; say its number` };
}
