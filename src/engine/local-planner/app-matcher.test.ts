import { describe, expect, it } from 'vitest';
import { matchApp } from './app-matcher';
import type { ContextSnapshot } from '../../protocol/context';
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

describe('matchApp: apps as people say them', () => {
  // The real test desktop: Debian's Chromium, XTerm and UXTerm from .desktop files; XClock has none.
  const desk = (running: string[], over: Partial<ContextSnapshot> = {}): ContextSnapshot =>
    laptop({
      running_apps: running.map((n) => ({ name: n, pid: 1, windows: [] })),
      installed_apps: [
        { name: 'Chromium', generic_name: 'Web Browser', keywords: ['Chromium Web Browser', 'browser'], default_for: ['browser'] },
        { name: 'UXTerm', generic_name: 'Terminal', keywords: ['shell', 'prompt'] },
        { name: 'XTerm', generic_name: 'Terminal', keywords: ['shell', 'prompt'], default_for: ['terminal'] },
        { name: 'Vim', generic_name: 'Text Editor' },
      ],
      ...over,
    });

  it('"chrome" is Chromium when Google Chrome is not installed', () => {
    expect(matchApp('chrome', desk([]), 'any')).toEqual({ kind: 'one', name: 'Chromium', tier: 'alias' });
    expect(matchApp('google chrome', desk(['Chromium']), 'running')).toEqual({ kind: 'one', name: 'Chromium', tier: 'alias' });
    // Brave and Edge too; with two of them and none running it asks.
    const both = desk([], { installed_apps: [{ name: 'Brave' }, { name: 'Microsoft Edge' }] });
    expect(matchApp('chrome', both, 'any')).toEqual({ kind: 'many', names: ['Brave', 'Microsoft Edge'], tier: 'alias' });
  });

  it('"terminal" is the running terminal, else the default one; "the browser" and "shell" by kind and keyword', () => {
    expect(matchApp('terminal', desk(['UXTerm']), 'any')).toEqual({ kind: 'one', name: 'UXTerm', tier: 'kind' });
    expect(matchApp('terminal', desk([]), 'any')).toEqual({ kind: 'one', name: 'XTerm', tier: 'kind' });
    expect(matchApp('shell', desk([]), 'any')).toEqual({ kind: 'one', name: 'XTerm', tier: 'kind' });
    expect(matchApp('web browser', desk([]), 'any')).toEqual({ kind: 'one', name: 'Chromium', tier: 'kind' });
    expect(matchApp('text editor', desk([]), 'any')).toEqual({ kind: 'one', name: 'Vim', tier: 'kind' });
    // Two terminals running and no default among them: a question.
    const noDefault = desk(['XTerm', 'UXTerm'], { installed_apps: [{ name: 'XTerm', generic_name: 'Terminal' }, { name: 'UXTerm', generic_name: 'Terminal' }] });
    expect(matchApp('terminal', noDefault, 'any').kind).toBe('many');
  });

  it('"clock" is XClock: a word inside a name written as one (no .desktop file needed)', () => {
    expect(matchApp('clock', desk(['XClock']), 'running')).toEqual({ kind: 'one', name: 'XClock', tier: 'word' });
    expect(matchApp('codium', laptop({ installed_apps: [{ name: 'VSCodium' }] }), 'any')).toEqual({ kind: 'one', name: 'VSCodium', tier: 'word' });
    // The first part of such a name is not the app, as with "google" for Google Chrome.
    expect(matchApp('x', desk(['XClock']), 'running')).toEqual({ kind: 'none' });
  });
});
