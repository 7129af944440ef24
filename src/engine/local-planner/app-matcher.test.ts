import { describe, expect, it } from 'vitest';
import { matchApp } from './app-matcher';
import { laptop, twoMonitors } from './test-fixtures';

describe('matchApp', () => {
  const snap = laptop();

  it('an exact name wins outright', () => {
    expect(matchApp('code', snap, 'any')).toEqual({ kind: 'one', name: 'Code', tier: 'exact' });
    expect(matchApp('CURSOR', snap, 'running')).toEqual({ kind: 'one', name: 'Cursor', tier: 'exact' });
  });

  it('the last word of a name stands for it; the first does not', () => {
    expect(matchApp('chrome', snap, 'any')).toEqual({ kind: 'one', name: 'Google Chrome', tier: 'word' });
    expect(matchApp('google', snap, 'any')).toEqual({ kind: 'none' });
  });

  it('knows common aliases, preferring the one running', () => {
    expect(matchApp('vs code', snap, 'any')).toEqual({ kind: 'one', name: 'Code', tier: 'alias' });
    expect(matchApp('editor', snap, 'any')).toEqual({ kind: 'many', names: ['Code', 'Cursor'], tier: 'alias' });
    expect(matchApp('browser', twoMonitors(), 'any')).toEqual({ kind: 'many', names: ['Google Chrome', 'Chromium'], tier: 'alias' });
    expect(matchApp('browser', snap, 'any')).toEqual({ kind: 'one', name: 'Google Chrome', tier: 'alias' });
  });

  it('only running apps when asked', () => {
    expect(matchApp('obsidian', snap, 'running')).toEqual({ kind: 'none' });
    expect(matchApp('obsidian', snap, 'any')).toEqual({ kind: 'one', name: 'Obsidian', tier: 'exact' });
  });

  it('forgives a slip, strictly', () => {
    expect(matchApp('spotfy', snap, 'any')).toEqual({ kind: 'one', name: 'Spotify', tier: 'fuzzy' });
    expect(matchApp('termnal', snap, 'any')).toEqual({ kind: 'one', name: 'Terminal', tier: 'fuzzy' });
    expect(matchApp('spotfy', snap, 'any', { fuzzy: false })).toEqual({ kind: 'none' });
    // Short, or a different first letter: no.
    expect(matchApp('zom', snap, 'any')).toEqual({ kind: 'none' });
    expect(matchApp('gcode', snap, 'any')).toEqual({ kind: 'none' });
  });
});
