import { describe, expect, it } from 'vitest';
import { prepareIndex, queryOf, rank, type LiveEntity } from './match';
import { tab, testIndex } from './test-index';

const names = (e: LiveEntity) =>
  e.kind === 'tab' ? `tab ${e.tab.index}` : e.kind === 'app' ? `app ${e.app.name}` : e.kind === 'window' ? `window ${e.window.id}` : `preset ${e.name}`;
const ranked = (text: string, index = testIndex()) => rank(prepareIndex(index), text).map((r) => names(r.entity));

describe('live list matching', () => {
  it('lists the tabs a site name matches, in tab order when they score alike', () => {
    expect(ranked('reddit')).toEqual(['tab 1', 'tab 3']);
    expect(ranked('youtube')).toEqual(['tab 4', 'tab 6']);
  });

  it('leaves the command words out: "close youtube" lists the YouTube tabs, "close" alone lists nothing', () => {
    expect(ranked('close youtube tabs')).toEqual(['tab 4', 'tab 6']);
    expect(ranked('close')).toEqual([]);
    expect(queryOf('switch to the rust docs')).toEqual({ tokens: ['rust', 'docs'], optional: ['switch', 'to', 'the'] });
  });

  it('every word that is not a command word must match: "reddit typescript" is only r/typescript', () => {
    expect(ranked('reddit typescript')).toEqual(['tab 3']);
    expect(ranked('reddit cats')).toEqual([]);
  });

  it('matches the start of a word, inside a word, and one typo away', () => {
    expect(ranked('typescr')).toEqual(['tab 3']);
    expect(ranked('script')).toEqual(['tab 3']);
    expect(ranked('reddti')).toEqual(['tab 1', 'tab 3']);
    // Two-letter words only match whole or from a word's start.
    expect(ranked('xt')).toEqual(['app XTerm']);
  });

  it('finds running apps by name and by their window titles, installed apps after running ones, and presets', () => {
    expect(ranked('xterm')).toEqual(['app XTerm']);
    expect(ranked('user@host')).toEqual(['app XTerm']);
    expect(ranked('code')).toEqual(['preset code space', 'app Visual Studio Code']);
    expect(ranked('move xterm to the left monitor')).toEqual(['app XTerm']);
  });

  it('a whole title typed comes first; the kind said ("tab", "app") favours that kind', () => {
    const index = testIndex({ tabs: [tab(1, 'Rust Docs guide', 'a.org'), tab(2, 'Rust Docs', 'b.org')] });
    expect(ranked('rust docs', index)).toEqual(['tab 2', 'tab 1']);
    const both = testIndex({ tabs: [tab(1, 'XTerm manual', 'x.org')] });
    expect(ranked('xterm', both)).toEqual(['app XTerm', 'tab 1']);
    expect(ranked('xterm tab', both)[0]).toBe('tab 1');
  });

  it('ranks 300 tabs and 40 windows without trouble and cuts the list at the limit', () => {
    const tabs = Array.from({ length: 300 }, (_, i) => tab(i + 1, `Issue ${i + 1} · deskpilot`, 'github.com'));
    const apps = Array.from({ length: 40 }, (_, i) => ({ name: `App ${i}`, running: true, windows: [{ id: `0x${i}`, title: `Window ${i}`, monitor: null, focused: false, minimized: false }] }));
    const prepared = prepareIndex(testIndex({ tabs, apps }));
    expect(rank(prepared, 'issue', 20)).toHaveLength(20);
    expect(rank(prepared, 'issue 142').map((r) => names(r.entity))[0]).toBe('tab 142');
  });
});
