import { describe, expect, it } from 'vitest';
import type { Command, Envelope } from '../../protocol/commands';
import type { ContextSnapshot, WindowInfo } from '../../protocol/context';
import { resolveBatch } from '../resolve';
import { planLocally } from './local-planner';
import { laptop, twoMonitors } from './test-fixtures';

// Window words of issue 27 on a desk like the test desktop's: three xterms titled "logs",
// "build" and "vim notes" (left to right, the last on the right monitor), two Chromium windows.

const win = (id: string, title: string, bounds: [number, number, number, number], monitor: string, more: Partial<WindowInfo> = {}): WindowInfo => ({
  id,
  title,
  bounds,
  monitor,
  focused: false,
  minimized: false,
  ...more,
});

const base = twoMonitors();
const [left, right] = [base.monitors.find((m) => m.roles.includes('left'))!, base.monitors.find((m) => m.roles.includes('right'))!];
const rx = right.bounds[0];
const desk: ContextSnapshot = {
  ...base,
  running_apps: [
    // Most recently used first, as the backends list them: not the screen order.
    { name: 'XTerm', pid: 11, windows: [win('0x3', 'vim notes', [rx + 100, 100, rx + 600, 400], right.name, { focused: true }), win('0x1', 'logs', [10, 100, 500, 400], left.name), win('0x2', 'build', [600, 100, 1100, 400], left.name)] },
    { name: 'Chromium', pid: 12, windows: [win('0xc1', 'Inbox - Chromium', [rx, 0, rx + 1000, 800], right.name), win('0xc2', 'Docs - Chromium', [0, 0, 1000, 800], left.name)] },
    { name: 'XClock', pid: 13, windows: [win('0xd', 'xclock', [1200, 100, 1400, 300], left.name)] },
  ],
  installed_apps: [{ name: 'XTerm', generic_name: 'Terminal' }, { name: 'Chromium', generic_name: 'Web Browser' }, { name: 'XClock' }],
};

const answer = (text: string, snap = desk) => {
  const a = planLocally({ text, context: snap, turns: [] });
  return { envelope: a.envelope as Envelope, candidates: a.candidates?.map((c) => ({ label: c.label, envelope: c.envelope as Envelope })) };
};
const commands = (text: string, snap = desk): Command[] => {
  const a = answer(text, snap);
  expect(a.envelope.needs_clarification, `"${text}" asked: ${a.envelope.clarification_reason}`).toBe(false);
  // Every answer resolves against the desk it was planned on (window ids included).
  expect(resolveBatch(a.envelope.commands, snap).ok).toBe(true);
  return a.envelope.commands;
};
const ids = (text: string, snap = desk) => commands(text, snap).map((c) => ('window_id' in c ? c.window_id : 'window_ids' in c ? c.window_ids : null));
const halfOf = (area: readonly number[], side: 'left' | 'right') => {
  const mid = area[0]! + Math.floor((area[2]! - area[0]!) / 2);
  return side === 'left' ? [area[0], area[1], mid, area[3]] : [mid, area[1], area[2], area[3]];
};

describe('words that name one window of several (issue 27)', () => {
  it('"the second xterm" counts in screen order (left to right), not in the order last used', () => {
    expect(ids('put the second xterm left half')).toEqual(['0x2']);
    expect(ids('put the first xterm on the right monitor')).toEqual(['0x1']);
    expect(ids('move the last xterm to the left monitor')).toEqual(['0x3']);
    expect(ids('maximise the 2nd xterm window')).toEqual(['0x2']);
  });

  it('bounds are laid out on the monitor of the window meant, not of the app\'s most recent window', () => {
    expect(commands('put the second xterm left half')).toEqual([{ type: 'place_app', app_name: 'XTerm', window_id: '0x2', bounds: halfOf(left.work_area, 'left') }]);
    expect(commands('put the third xterm left half')).toEqual([{ type: 'place_app', app_name: 'XTerm', window_id: '0x3', bounds: halfOf(right.work_area, 'left') }]);
  });

  it('"xterm 2", "xterm-1", "xterm #3" name a window by its number', () => {
    expect(ids('xterm 2 left half')).toEqual(['0x2']);
    expect(ids('put xterm-1 in the bottom left quarter')).toEqual(['0x1']);
    expect(ids('minimise xterm #3')).toEqual(['0x3']);
  });

  it('a title fragment: "the xterm titled logs", "the xterm running vim", "the build xterm", "the logs window", a title as a name', () => {
    expect(ids('put the xterm titled logs on the right monitor')).toEqual(['0x1']);
    expect(ids('move the xterm running vim to the left monitor')).toEqual(['0x3']);
    expect(ids('maximise the build xterm')).toEqual(['0x2']);
    expect(ids('put the logs window right half')).toEqual(['0x1']);
    expect(ids('put build in the top right quarter')).toEqual(['0x2']);
  });

  it('"the other chromium window" is the one of two not in front; "this window" is the focused one', () => {
    expect(ids('put the other chromium window on the right monitor')).toEqual(['0xc2']);
    expect(commands('maximise this window')).toEqual([{ type: 'place_app', app_name: 'XTerm', window_id: '0x3', bounds: right.work_area }]);
  });

  it('"switch to the second xterm" focuses that window', () => {
    expect(commands('switch to the second xterm')).toEqual([{ type: 'focus_app', app_name: 'XTerm', window_id: '0x2' }]);
  });

  it('"both chromium windows left", "minimise all terminals", "the xterms": every window, each by id', () => {
    expect(commands('both chromium windows left')).toEqual([
      { type: 'place_app', app_name: 'Chromium', window_id: '0xc2', monitor: 'left' },
      { type: 'place_app', app_name: 'Chromium', window_id: '0xc1', monitor: 'left' },
    ]);
    expect(ids('minimise all terminals')).toEqual(['0x1', '0x2', '0x3']);
    expect(ids('minimize every xterm window')).toEqual(['0x1', '0x2', '0x3']);
    expect(ids('move the xterms to the left monitor')).toEqual(['0x1', '0x2', '0x3']);
    expect(commands('tile both chromium windows')).toEqual([{ type: 'tile_apps', app_names: ['Chromium', 'Chromium'], window_ids: ['0xc2', '0xc1'] }]);
    expect(commands('swap the two chromium windows')).toEqual([{ type: 'swap_apps', app_names: ['Chromium', 'Chromium'], window_ids: ['0xc2', '0xc1'] }]);
  });

  it('"close every xterm window" quits the app; closing one of its windows is said to be impossible, not done to all', () => {
    expect(commands('close every xterm window')).toEqual([{ type: 'close_app', app_name: 'XTerm' }]);
    expect(answer('close the second xterm').envelope.needs_clarification).toBe(true);
  });
});

describe('an app with several windows and no word for which: the question (issue 27)', () => {
  it('"put xterm right" with three xterms asks, listing them by title in screen order, each a ready choice', () => {
    const a = answer('put xterm right');
    expect(a.envelope.commands).toEqual([]);
    expect(a.envelope.clarification_reason).toMatch(/^XTerm has 3 windows — which one\? 1 "logs" on .*, 2 "build" on .*, 3 "vim notes" on /);
    expect(a.candidates?.map((c) => c.envelope.commands[0])).toEqual(
      ['0x1', '0x2', '0x3'].map((id) => ({ type: 'place_app', app_name: 'XTerm', window_id: id, monitor: 'right' })),
    );
    // A UI numbers the choices itself; the labels say which window, as the question does.
    expect(a.candidates?.map((c) => c.label)).toEqual(['XTerm "logs" on LEFT', 'XTerm "build" on LEFT', 'XTerm "vim notes" on RIGHT']);
  });

  it('a choice between apps leaves out an app whose windows would need a second question', () => {
    // "the browser": Google Chrome (two windows here) or Chromium (one): only Chromium is a ready choice.
    const a = answer('move the browser to the right monitor', twoMonitors());
    expect(a.envelope.clarification_reason).toMatch(/Google Chrome.*Chromium/);
    expect(a.candidates?.map((c) => c.envelope.commands)).toEqual([[{ type: 'place_app', app_name: 'Chromium', monitor: 'right' }]]);
  });

  it('minimise, full screen, swap and tile ask too; a second app in the sentence keeps its own command in each choice', () => {
    for (const text of ['minimise chromium', 'put chromium in fullscreen mode', 'swap chromium and xclock', 'tile xterm and xclock']) {
      expect(answer(text).envelope.needs_clarification, text).toBe(true);
    }
    const a = answer('put xclock left and chromium right');
    expect(a.candidates?.map((c) => c.envelope.commands)).toEqual(
      ['0xc2', '0xc1'].map((id) => [
        { type: 'place_app', app_name: 'XClock', monitor: 'left' },
        { type: 'place_app', app_name: 'Chromium', window_id: id, monitor: 'right' },
      ]),
    );
  });

  it('what is about the app as a whole does not ask: switch to it, quit it', () => {
    expect(commands('switch to xterm')).toEqual([{ type: 'focus_app', app_name: 'XTerm' }]);
    expect(commands('quit chromium')).toEqual([{ type: 'close_app', app_name: 'Chromium' }]);
  });

  it('only the windows the command can mean count: with the others minimised there is nothing to ask', () => {
    const some: ContextSnapshot = {
      ...desk,
      running_apps: desk.running_apps.map((a) => (a.name === 'Chromium' ? { ...a, windows: [a.windows[0]!, { ...a.windows[1]!, minimized: true, state: 'minimized' as const }] } : a)),
    };
    expect(ids('chromium left', some)).toEqual(['0xc1']);
    expect(ids('restore chromium', some)).toEqual(['0xc2']);
  });

  it('one window per app is unchanged: no window_id, no question', () => {
    expect(commands('xterm left half', laptop({ running_apps: [{ name: 'XTerm', pid: 1, windows: [win('0x9', 'xterm', [0, 40, 500, 400], 'eDP-1')] }] }))).toEqual([
      { type: 'place_app', app_name: 'XTerm', bounds: [0, 32, 960, 1080] },
    ]);
  });

  it('a reference that fits several windows, or none, asks', () => {
    expect(answer('put the xterm titled zebra left').envelope.clarification_reason).toMatch(/No XTerm window has "zebra" in its title/);
    expect(answer('put both xterms left').envelope.clarification_reason).toMatch(/XTerm has 3 windows\. Which two\?/);
    expect(answer('put the other xterm left').envelope.needs_clarification).toBe(true);
    expect(answer('put the fifth xterm left').envelope.clarification_reason).toMatch(/XTerm has 3 windows, not 5/);
  });
});
