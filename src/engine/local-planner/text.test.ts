import { describe, expect, it } from 'vitest';
import { hasSeparator, normalize, parseNumber, squash, stripArticles, stripFillers } from './text';

describe('normalize + stripFillers', () => {
  it.each([
    ['Hey, can you please switch to Reddit?', 'switch to reddit'],
    ['could you please open slack for me, thanks!', 'open slack'],
    ["What's on my LEFT monitor?", 'what is on my left monitor'],
    ["let's do some writing.", 'do some writing'],
    ['now put it on the right', 'put it on the right'],
    ['ok so   just   undo that', 'undo that'],
    ['open github.com/vercel.', 'open github.com/vercel'],
    ['close tabs 2,4 and 6', 'close tabs 2, 4 and 6'],
    ['“quoted” words', 'quoted words'],
  ])('%j → %j', (input, out) => expect(stripFillers(normalize(input))).toBe(out));

  it('keeps dots inside words', () => {
    expect(normalize('Switch to next.js docs.')).toBe('switch to next.js docs');
  });
});

describe('parseNumber', () => {
  it.each([
    ['3', 3],
    ['#12', 12],
    ['3rd', 3],
    ['three', 3],
    ['third', 3],
    ['seventeen', 17],
    ['twice', 2],
    ['many', null],
  ] as const)('%s → %s', (w, n) => expect(parseNumber(w)).toBe(n));
});

describe('helpers', () => {
  it('strips leading articles only', () => {
    expect(stripArticles('the my the reddit tab')).toBe('reddit tab');
    expect(stripArticles('theverge')).toBe('theverge');
  });
  it('squashes names to letters and digits', () => {
    expect(squash('VS Code')).toBe('vscode');
    expect(squash('next.js')).toBe('nextjs');
  });
  it('sees clause separators', () => {
    expect(hasSeparator('obsidian then put it left')).toBe(true);
    expect(hasSeparator('hacker news')).toBe(false);
  });
});
