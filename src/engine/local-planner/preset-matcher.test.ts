import { describe, expect, it } from 'vitest';
import { matchPreset, presetsWithWord } from './preset-matcher';

const presets = ['code space', 'writing', 'meeting', 'focus mode', 'Code Review'];

describe('matchPreset', () => {
  it.each([
    ['code space', 'code space'],
    ['Code Space', 'code space'],
    ['codespace', 'code space'],
    ['writing mode', 'writing'],
    ['the meeting setup', 'meeting'],
    ['focus', 'focus mode'],
    ['focus mode', 'focus mode'],
    ['code review layout', 'Code Review'],
  ])('%j → %j', (phrase, name) => expect(matchPreset(phrase, presets)).toEqual({ kind: 'one', name }));

  it('accepts a slip only when asked to', () => {
    expect(matchPreset('writting mode', presets)).toEqual({ kind: 'none' });
    expect(matchPreset('writting mode', presets, true)).toEqual({ kind: 'one', name: 'writing' });
  });

  it('does not match part of a name', () => {
    expect(matchPreset('code', presets)).toEqual({ kind: 'none' });
    expect(presetsWithWord('code', presets)).toEqual(['code space', 'Code Review']);
  });
});
