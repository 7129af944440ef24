import { describe, expect, it } from 'vitest';
import { narrows, prepareIndex, rank, type Ranked } from './match';
import { tab, testIndex } from './test-index';

// The ranking remembers the last query and, when the next one only narrows it, looks at the
// last matches only. Whatever is typed, in whatever order, it must list exactly what a ranking
// of the same words on a freshly prepared index lists.

const base = testIndex();
const index = testIndex({
  tabs: [
    ...base.tabs,
    tab(7, 'Digit recognition', 'example.org'),
    tab(8, 'Pinball machines', 'pinball.net'),
    tab(9, 'Issue #142 · deskpilot/deskpilot · GitHub', 'github.com'),
    tab(10, 'Pull request #17 · deskpilot/deskpilot · GitHub', 'github.com', { window: 2 }),
  ],
});

const view = (r: Ranked[]) => r.map((x) => `${x.entity.key} ${x.score.toFixed(6)}`);
const fresh = (text: string, limit?: number) => view(rank(prepareIndex(index), text, limit));

/** Each prefix of `text`, as typed key by key. */
const keyByKey = (text: string) => Array.from(text, (_, i) => text.slice(0, i + 1));

/** A small deterministic generator, so a failing sequence can be replayed. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

describe('live ranking narrows the previous matches', () => {
  it('typing key by key, deleting and retyping lists what a fresh ranking lists', () => {
    const prepared = prepareIndex(index);
    const phrases = ['github issue 142', 'close youtube tabs', 'digit', 'pin', 'to top', 'topaz', 'reddti typescript', 'pull request 17', 'gi git', 'rust docs', 'x'];
    for (const phrase of phrases) {
      const typed = [...keyByKey(phrase), ...keyByKey(phrase).reverse(), ...keyByKey(phrase)];
      for (const text of typed) expect(view(rank(prepared, text)), JSON.stringify(text)).toEqual(fresh(text));
    }
  });

  it('random edits (letters, spaces, command words, deletions) never differ from a fresh ranking', () => {
    const prepared = prepareIndex(index);
    const next = lcg(42);
    const pieces = ['g', 'i', 't', 'p', 'n', 'o', 'e', 'r', 'd', ' ', ' ', 'to', 'pin', 'tab', 'hub', '1', '4', 'x'];
    let text = '';
    for (let step = 0; step < 3000; step++) {
      const r = next();
      if (r < 0.25 && text) text = text.slice(0, -1);
      else if (r < 0.3) text = '';
      else text += pieces[Math.floor(next() * pieces.length)]!;
      const limit = next() < 0.5 ? 3 : 50;
      expect(view(rank(prepared, text, limit)), JSON.stringify(text)).toEqual(fresh(text, limit));
    }
  });

  it('a word of two letters that grows to three finds pieces inside words the shorter one did not', () => {
    const prepared = prepareIndex(index);
    // "gi" matches word starts only (GitHub); "git" also matches inside "Digit".
    expect(rank(prepared, 'gi').map((r) => r.entity.key)).not.toContain('tab:7');
    expect(rank(prepared, 'git').map((r) => r.entity.key)).toContain('tab:7');
    expect(narrows(['gi'], ['git'])).toBe(false);
    expect(narrows(['git'], ['gith'])).toBe(true);
    expect(narrows(['g'], ['gi'])).toBe(true);
    // "pi" was a word to match; "pin" is a command word and drops that condition.
    expect(narrows(['pi'], [])).toBe(false);
    expect(narrows(['github'], ['github', 'i'])).toBe(true);
    expect(narrows(['github', 'issue'], ['github'])).toBe(false);
  });
});
