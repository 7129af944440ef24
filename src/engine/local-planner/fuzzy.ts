import Fuse from 'fuse.js';
import { editDistance } from '../closest-names';

// The typo tier of every matcher ("redit", "spotfy", "writting"). Fuse finds the pattern
// anywhere in a key, so a perfect Fuse score can mean a mere substring ("git" in "github");
// the gates below keep only keys of about the query's own length, scored like one or two
// slips, and clearly ahead of the next candidate. Anything else is left to a question.

export interface FuzzyKey<T> {
  value: T;
  /** Lower-case text the query is compared with (a site label, an app or preset name). */
  key: string;
}

/** Fuse scores 0 (perfect) … 1; one slip in a 5–8 letter word scores about 0.13–0.25. */
const MAX_SCORE = 0.25;
/** What one edit (a swap of two neighbouring letters included) scores. */
const ONE_SLIP = 0.2;
/** The runner-up must trail by this much, so that two similar names never get picked between. */
const MIN_MARGIN = 0.15;
/** Shorter words have too many one-slip neighbours ("zom": zoom? chrome?). */
const MIN_QUERY_LENGTH = 5;

export type FuzzyPick<T> = { kind: 'one'; value: T } | { kind: 'many'; values: T[] } | { kind: 'none' };

export function fuzzyPick<T>(query: string, keys: readonly FuzzyKey<T>[]): FuzzyPick<T> {
  const q = query.trim().toLowerCase();
  if (q.length < MIN_QUERY_LENGTH || keys.length === 0) return { kind: 'none' };
  const slack = Math.max(1, Math.floor(q.length / 6));
  // Slips rarely hit the first letter, and "gmail" is not a slip of "mail".
  const eligible = keys.filter((k) => Math.abs(k.key.length - q.length) <= slack && k.key[0] === q[0]);
  if (eligible.length === 0) return { kind: 'none' };
  const fuse = new Fuse(eligible, {
    keys: ['key'],
    includeScore: true,
    threshold: 0.4,
    ignoreLocation: true,
    ignoreDiacritics: true,
  });
  // Best score per distinct value: one app may be reachable under several keys.
  const best = new Map<T, number>();
  const note = (value: T, score: number) => {
    const prev = best.get(value);
    if (prev === undefined || score < prev) best.set(value, score);
  };
  for (const r of fuse.search(q)) note(r.item.value, r.score ?? 1);
  // Fuse scores two swapped letters ("gmial") as two slips; typed fast, they are one.
  for (const k of eligible) if (editDistance(q, k.key) === 1) note(k.value, ONE_SLIP);
  const ranked = [...best.entries()].sort((a, b) => a[1] - b[1]);
  const top = ranked[0];
  if (!top || top[1] > MAX_SCORE) return { kind: 'none' };
  const close = ranked.filter(([, s]) => s < top[1] + MIN_MARGIN);
  return close.length === 1 ? { kind: 'one', value: top[0] } : { kind: 'many', values: close.map(([v]) => v) };
}
