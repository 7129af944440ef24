import { describe, expect, it } from 'vitest';
import { suggestions } from './suggestions';
import { tab, testIndex } from './test-index';

describe('the empty state’s suggestions', () => {
  it('names only what this desk has: a site of its tabs, its running apps, a site with several tabs', () => {
    expect(suggestions(testIndex())).toEqual(['switch to github', 'xterm left and chromium right', 'close all reddit tabs', 'how many tabs do I have open?']);
  });

  it('with nothing open there is nothing to suggest; one monitor, no moves', () => {
    expect(suggestions(null)).toEqual([]);
    expect(suggestions(testIndex({ tabs: [], apps: [], presets: [] }))).toEqual([]);
    const one = testIndex({ monitors: [{ name: 'M', roles: ['main', 'left', 'right'] }], tabs: [tab(1, 'Hacker News', '127.0.0.1'), tab(2, 'Rust Docs', '127.0.0.1', { active: true })] });
    expect(suggestions(one)).toEqual(['switch to hacker news', 'how many tabs do I have open?', 'apply code space']);
  });
});
