import { describe, expect, it } from 'vitest';
import type { RunningApp, TabInfo } from '../protocol/context';
import { linkBrowserWindows } from './browser-windows';

const tab = (target_id: string, title: string, browser_window_id: number, local_index: number, is_active = false): TabInfo => ({
  index: 1, title, url: `https://${target_id}.example/`, domain: `${target_id}.example`, content_summary: null, is_active,
  window_index: browser_window_id, browser_window_id, local_index, target_id,
});
const app = (name: string, titles: Array<[string, string]>): RunningApp => ({
  name, pid: 1, windows: titles.map(([id, title]) => ({ id, title, bounds: [0, 0, 10, 10], monitor: null, focused: false, minimized: false })),
});

describe('linking OS windows to browser windows', () => {
  it("a window titled with one browser window's active tab gets that window's id and tabs in strip order", () => {
    const apps = [app('Chromium', [['0x1', 'Mail - Chromium'], ['0x2', 'Docs - Chromium']]), app('XTerm', [['0x3', 'vim Mail - notes']])];
    const tabs = [tab('b', 'Docs', 7, 2, true), tab('a', 'News', 7, 1), tab('m', 'Mail', 9, 1, true)];
    const [chromium, xterm] = linkBrowserWindows(apps, tabs);
    expect(chromium!.windows.map((w) => [w.browser_window_id, w.tab_ids])).toEqual([[9, ['m']], [7, ['a', 'b']]]);
    // A title that only contains the tab's is not that window.
    expect(xterm!.windows[0]!.browser_window_id).toBeUndefined();
  });

  it('two browser windows showing the same title link neither', () => {
    const apps = [app('Chromium', [['0x1', 'New Tab - Chromium'], ['0x2', 'New Tab - Chromium']])];
    const linked = linkBrowserWindows(apps, [tab('a', 'New Tab', 1, 1, true), tab('b', 'New Tab', 2, 1, true)]);
    expect(linked[0]!.windows.map((w) => w.browser_window_id)).toEqual([undefined, undefined]);
  });
});
