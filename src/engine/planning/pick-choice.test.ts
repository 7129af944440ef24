import { describe, expect, it } from 'vitest';
import { pickChoice } from './pick-choice';

const LABELS = ['tab 1 "Reddit - front page" (reddit.com)', 'tab 3 "Reddit - r/node" (reddit.com)', 'the app "Slack"'];
const picked = (answer: string) => {
  const p = pickChoice(answer, LABELS);
  return p.kind === 'picked' ? p.index + 1 : p.why;
};

describe('pickChoice: a number or words for one of the numbered choices', () => {
  it.each([
    ['2', 2], ['#3', 3], ['2)', 2], [' 1 ', 1], ['option 2', 2], ['number 3', 3],
    ['the second one', 2], ['second', 2], ['last', 3], ['the first', 1], ['3rd', 3],
  ])('%s → %s', (answer, n) => {
    expect(picked(answer)).toBe(n);
  });

  it.each([
    ['the r/node one', 2], ['node', 2], ['front page', 1], ['slack', 3], ['the app', 3],
  ])('words only one label holds: %s → %s', (answer, n) => {
    expect(picked(answer)).toBe(n);
  });

  it('a number out of range, words that fit two or none, and no answer pick nothing', () => {
    expect(picked('4')).toBe('there is no choice 4; say a number from 1 to 3');
    expect(picked('reddit')).toBe('"reddit" fits choices 1 and 2; say its number');
    expect(picked('youtube')).toBe('"youtube" is none of the choices; say a number from 1 to 3');
    expect(picked('   ')).toBe('no answer');
    expect(picked('the one')).toBe('say a number from 1 to 3');
    expect(picked('one')).toBe(1);
  });
});
