import { describe, expect, it } from 'vitest';
import { prepareIndex } from './match';
import { buildRows, type LiveRow } from './rows';
import { testIndex } from './test-index';

// Issue 27: the launcher's live list shows a row per window when an app has several, each
// named by its window title and acting on that window by its id; an app with one window keeps
// its one app row.

const index = testIndex({
  apps: [
    {
      name: 'XTerm',
      running: true,
      windows: [
        { id: '0x1a00004', title: 'build — make', monitor: 'LEFT', focused: true, minimized: false },
        { id: '0x1c00004', title: 'logs — tail', monitor: 'RIGHT', focused: false, minimized: true },
      ],
    },
    { name: 'Chromium', running: true, windows: [{ id: '0x2', title: 'New Tab - Chromium', monitor: 'RIGHT', focused: false, minimized: false }] },
  ],
});
const prepared = prepareIndex(index);
const items = (text: string) => buildRows(text, index, prepared, null).rows.filter((r): r is Extract<LiveRow, { kind: 'item' }> => r.kind === 'item');

describe('a row per window', () => {
  it('"xterm" lists both xterm windows by title, each with its id, where it is and what it can do', () => {
    const rows = items('xterm');
    expect(rows.map((r) => [r.title, r.subtitle, r.accessory, r.ref])).toEqual([
      ['build — make', 'XTerm', 'Window · left monitor', { kind: 'window', app: 'XTerm', id: '0x1a00004' }],
      ['logs — tail', 'XTerm', 'Window · minimised · right monitor', { kind: 'window', app: 'XTerm', id: '0x1c00004' }],
    ]);
    expect(rows[0]!.actions.map((a) => a.action)).toEqual(['open', 'move_left', 'move_right']);
  });

  it('a word of one window\'s title finds that window only', () => {
    expect(items('logs').map((r) => r.title)).toEqual(['logs — tail']);
  });

  it('an app with one window keeps its app row', () => {
    expect(items('chromium').map((r) => [r.title, r.ref])).toEqual([['Chromium', { kind: 'app', name: 'Chromium' }]]);
  });
});
