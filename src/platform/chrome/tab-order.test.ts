import { describe, expect, it } from 'vitest';
import { isListablePage, orderTabs, type TabRecord } from './tab-order';

const rec = (pageId: string, windowId: number, stripIndex: number | null, firstSeen: number, active = false): TabRecord => ({
  pageId,
  title: pageId,
  url: `https://${pageId}.example/`,
  windowId,
  stripIndex,
  active,
  firstSeen,
});

describe('orderTabs', () => {
  it('orders windows by id and tabs by strip index, with 1-based positions', () => {
    const tabs = orderTabs([rec('b2', 20, 1, 0), rec('a1', 10, 0, 5, true), rec('b1', 20, 0, 9, true), rec('a2', 10, 1, 1)]);
    expect(tabs.map((t) => [t.targetId, t.windowIndex, t.localIndex, t.active])).toEqual([
      ['a1', 1, 1, true],
      ['a2', 1, 2, false],
      ['b1', 2, 1, true],
      ['b2', 2, 2, false],
    ]);
  });

  it('falls back to first-seen order for a window with any unknown strip index', () => {
    const tabs = orderTabs([rec('x', 1, 0, 2), rec('y', 1, null, 1), rec('z', 2, 1, 0), rec('w', 2, 0, 3)]);
    expect(tabs.map((t) => t.targetId)).toEqual(['y', 'x', 'w', 'z']);
  });

  it('copies title and url from the record', () => {
    const [t] = orderTabs([rec('p', 1, 0, 0)]);
    expect(t).toEqual({ targetId: 'p', title: 'p', url: 'https://p.example/', active: false, windowIndex: 1, browserWindowId: 1, localIndex: 1 });
  });
});

describe('isListablePage', () => {
  it('hides DevTools but keeps chrome:// pages', () => {
    expect(isListablePage('devtools://devtools/bundled/inspector.html')).toBe(false);
    expect(isListablePage('chrome://newtab/')).toBe(true);
    expect(isListablePage('chrome-extension://abc/options.html')).toBe(true);
  });
});
