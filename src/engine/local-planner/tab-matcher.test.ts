import { describe, expect, it } from 'vitest';
import { matchTabs } from './tab-matcher';
import { laptop, tab } from './test-fixtures';

const tabs = laptop().tabs;
const indices = (phrase: string, opts = {}) => {
  const m = matchTabs(phrase, tabs, opts);
  return { tier: m.tier, best: m.tabs.map((t) => t.index), all: m.all.map((t) => t.index) };
};

describe('matchTabs', () => {
  it('matches a site by its name without TLD, an alias, or a typed address', () => {
    expect(indices('youtube')).toEqual({ tier: 'site', best: [4], all: [4] });
    expect(indices('gmail')).toEqual({ tier: 'site', best: [1], all: [1] });
    expect(indices('hacker news')).toEqual({ tier: 'site', best: [7], all: [7] });
    expect(indices('news.ycombinator.com')).toEqual({ tier: 'site', best: [7], all: [7] });
    expect(indices('github.com/vercel')).toEqual({ tier: 'site', best: [6], all: [6] });
    expect(indices('reddit').best).toEqual([2, 3]);
  });

  it('"google" is google.com itself, not Gmail or Docs', () => {
    expect(indices('google').tier).not.toBe('site');
  });

  it('counts a tab whose title names the site as a candidate too', () => {
    expect(indices('next.js')).toEqual({ tier: 'site', best: [6, 9], all: [9] });
  });

  it('matches title and address words; words for a kind of page break ties', () => {
    expect(indices('the reddit thread about vitest').best).toEqual([2]);
    expect(indices('next.js repo').best).toEqual([6]);
    expect(indices('next.js docs').best).toEqual([9]);
    expect(indices('planning doc').best).toEqual([8]);
    expect(indices('rust video').best).toEqual([4]);
    expect(indices('my inbox').best).toEqual([1]);
  });

  it('needs every specific word, but not the kind of page', () => {
    expect(indices('deskpilot roadmap').tier).toBe('none');
    expect(indices('espresso video').tier).toBe('words');
    // Described as the wrong kind, the one Rust tab is still the Rust tab.
    expect(indices('rust thread').best).toEqual([4]);
  });

  it('tolerates a slip in a site name, never in a short word', () => {
    expect(indices('youtub')).toEqual({ tier: 'fuzzy', best: [4], all: [4] });
    expect(indices('redit').best).toEqual([2, 3]);
    expect(indices('gith').tier).toBe('none');
    expect(indices('youtub', { fuzzy: false }).tier).toBe('none');
  });

  it('leaves "a and b" to its callers', () => {
    expect(indices('gmail and youtube').tier).toBe('none');
  });

  it('can look at titles only', () => {
    const t = [tab(1, 'https://airbnb.com/s/Lisbon', 'Alfama apartments'), tab(2, 'https://booking.com/x', 'Hotels in Lisbon')];
    expect(matchTabs('lisbon', t).all.map((x) => x.index)).toEqual([1, 2]);
    expect(matchTabs('lisbon', t, { titlesOnly: true }).all.map((x) => x.index)).toEqual([2]);
  });
});
