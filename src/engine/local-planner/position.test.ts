import { describe, expect, it } from 'vitest';
import { parsePosition, positionByPatterns } from './position';

// parsePosition skips its long patterns when the text has none of the words a position needs
// (a cold CLI call would otherwise compile them all for "switch to reddit"). That check must
// never hide a position: over every phrase of up to four words from the words positions are
// made of (and some that are not), it gives exactly what the patterns alone give.

const WORDS = [
  'left', 'right', 'top', 'bottom', 'upper', 'lower', 'middle', 'center', 'centre', 'main', 'other', 'next', 'laptop', 'built-in',
  'big', 'small', 'second', 'monitor', 'screen', 'display', 'one', 'side', 'half', 'part', 'full', 'fullscreen', 'full-screen',
  'maximised', 'maximized', 'first', 'last', 'third', 'thirds', 'two', 'two-thirds', '2/3', '2', 'quarter', 'corner', 'top-left',
  'bottomright', 'sixth', 'almost', 'nearly', 'whole', 'the', 'of', 'on', 'my', 'at', '1200x800', 'number', '#2', 'chrome', 'tab',
];

function* phrases(maxWords: number): Generator<string> {
  const grow = function* (prefix: string[]): Generator<string> {
    if (prefix.length) yield prefix.join(' ');
    if (prefix.length === maxWords) return;
    for (const w of WORDS) yield* grow([...prefix, w]);
  };
  yield* grow([]);
}

describe('parsePosition: the word check before the patterns', () => {
  it('skips a text without position words', () => {
    expect(parsePosition('reddit')).toBeNull();
    expect(parsePosition('to the chrome tab')).toBeNull();
  });

  it('never hides a position the patterns find (every phrase of up to three words, and four-word phrases of the first 24 words)', () => {
    let positions = 0;
    for (const phrase of phrases(3)) {
      const expected = positionByPatterns(phrase);
      if (expected) positions++;
      expect(parsePosition(phrase), phrase).toEqual(expected);
    }
    const few = WORDS.slice(0, 24);
    for (const a of few) for (const b of few) for (const c of ['of the screen', 'on the left monitor', 'half', 'third on monitor 2']) {
      const phrase = `${a} ${b} ${c}`;
      expect(parsePosition(phrase), phrase).toEqual(positionByPatterns(phrase));
    }
    // The corpus reaches the patterns: many of its phrases are positions.
    expect(positions).toBeGreaterThan(200);
  });
});
