import { describe, expect, it } from 'vitest';
import { baseKey, groupWindows, nameResolver } from './app-grouping';
import type { CatalogApp, RawWindow } from './ports';

const win = (appKeys: string[], fallbackName: string): RawWindow => ({
  id: '0x1', pid: 1, appKeys, fallbackName, title: '', bounds: [0, 0, 10, 10], focused: false, minimized: false,
});
const catalog: CatalogApp[] = [
  { name: 'Chromium', id: 'chromium.desktop', windowKeys: ['chromium'] },
  { name: 'Google Chrome', id: 'google-chrome.desktop', windowKeys: ['google-chrome', 'google-chrome-stable'] },
  { name: 'Google Chrome (beta)', id: 'google-chrome-beta.desktop', windowKeys: ['google-chrome-beta'] },
  { name: 'XTerm', id: 'debian-xterm.desktop', windowKeys: ['xterm', 'debian-xterm'] },
];

describe('naming windows after the catalog', () => {
  const nameOf = nameResolver(catalog);

  it("Debian's Chromium window (class Chromium-browser, a profile in its instance) is Chromium, not Chromium-browser", () => {
    expect(nameOf(win(['chromium-browser (/tmp/profile)', 'Chromium-browser'], 'Chromium-browser'))).toBe('Chromium');
  });

  it('exact keys win over trimmed ones, and an unknown window keeps its own class', () => {
    expect(nameOf(win(['google-chrome-beta', 'Google-chrome-beta'], 'Google-chrome-beta'))).toBe('Google Chrome (beta)');
    expect(nameOf(win(['xterm', 'XTerm'], 'XTerm'))).toBe('XTerm');
    expect(nameOf(win(['xclock', 'XClock'], 'XClock'))).toBe('XClock');
  });

  it('trims only what packagers add', () => {
    expect(['firefox-bin', 'Brave-browser', 'code (x)', 'browser'].map(baseKey)).toEqual(['firefox', 'brave', 'code', 'browser']);
  });
});

describe('windows in the snapshot', () => {
  it('carry their place in the stacking order (0 topmost), their state and their process', () => {
    const list: RawWindow[] = [
      { ...win(['xterm', 'XTerm'], 'XTerm'), id: '0x3', pid: 30, fullscreen: true },
      { ...win(['xclock', 'XClock'], 'XClock'), id: '0x2', pid: null, maximized: true },
      { ...win(['xterm', 'XTerm'], 'XTerm'), id: '0x1', pid: 10, minimized: true, maximized: true },
    ];
    const apps = groupWindows(list, nameResolver(catalog), []);
    expect(apps.map((a) => [a.name, a.windows.map((w) => [w.id, w.stacking, w.state, w.pid])])).toEqual([
      ['XTerm', [['0x3', 0, 'fullscreen', 30], ['0x1', 2, 'minimized', 10]]],
      ['XClock', [['0x2', 1, 'maximized', null]]],
    ]);
  });
});
