import { describe, expect, it } from 'vitest';
import type { Command } from '../protocol/commands';
import type { ContextSnapshot, WindowInfo } from '../protocol/context';
import { parseInput } from '../protocol/validation';
import type { RawWindow } from './ports';
import { checkAnswer } from './plan-text';
import { resolveBatch } from './resolve';
import { whichWindow } from './resolve-windows';
import { stillOpen } from './window-ops';

// Window commands pick one window: by window_id, else the app's most recent; a stale id is never applied to another window.

const win = (id: string, title: string, x: number): WindowInfo => ({ id, title, bounds: [x, 0, x + 500, 400], monitor: 'LEFT', focused: false, minimized: false });
const snap: ContextSnapshot = {
  taken_at: '2026-11-28T00:00:00.000Z',
  monitors: [{ id: '1', name: 'LEFT', roles: ['left', 'main'], bounds: [0, 0, 1920, 1080], work_area: [0, 0, 1920, 1080], primary: true, scale: 1 }],
  running_apps: [
    { name: 'XTerm', pid: 5, windows: [win('0xa', 'build', 0), win('0xb', 'vim notes', 100), win('0xc', 'logs', 200)] },
    { name: 'XClock', pid: 6, windows: [win('0xd', 'xclock', 300)] },
  ],
  installed_apps: [],
  tabs: [],
  presets: [],
  sources: { chrome: { ok: true, message: '' }, windows: { ok: true, message: 'X11' }, presets: { ok: true, message: '' } },
};

const resolve = (cmd: Command) => resolveBatch([cmd], snap);
const errors = (cmd: Command) => {
  const r = resolve(cmd);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};
const windowIds = (cmd: Command) => {
  const r = resolve(cmd);
  return r.ok ? r.plan.map((c) => ('windowId' in c ? c.windowId : 'windows' in c ? c.windows.map((w) => w.windowId) : null)) : r.errors;
};

describe('which window a window command acts on', () => {
  it('an app with several windows and no window_id asks which, listing them; nothing is resolved (issue 27)', () => {
    const asked = resolve({ type: 'place_app', app_name: 'xterm', layout: 'left_half' });
    expect(asked).toEqual({ ok: false, errors: [{ path: 'commands[0].window_id', message: whichWindow('XTerm', snap.running_apps[0]!.windows), kind: 'clarify' }] });
    expect(errors({ type: 'swap_apps', app_names: ['XTerm', 'XClock'] })).toEqual([`commands[0].app_names[0]: ${whichWindow('XTerm', snap.running_apps[0]!.windows)}`]);
    expect(errors({ type: 'tile_apps', app_names: ['XClock', 'XTerm'], window_ids: ['0xd', null] })[0]).toMatch(/^commands\[0\]\.window_ids\[1\]: XTerm has 3 windows — which one\?/);
    expect(errors({ type: 'set_app_state', app_name: 'XTerm', state: 'minimized' })[0]).toMatch(/XTerm has 3 windows/);
  });

  it("a planner's answer naming an app with several windows and no id is a question for the user, not an error to repair (a repair would guess)", () => {
    const checked = checkAnswer({ commands: [{ type: 'place_app', app_name: 'XTerm', monitor: 'left' }], needs_clarification: false, clarification_reason: null }, snap);
    expect(checked.errors).toEqual([]);
    expect(checked.envelope).toEqual({ commands: [], needs_clarification: true, clarification_reason: whichWindow('XTerm', snap.running_apps[0]!.windows) });
    // Anything else wrong beside it is still an error.
    const both = checkAnswer({ commands: [{ type: 'place_app', app_name: 'XTerm', monitor: 'left' }, { type: 'place_app', app_name: 'Nope', monitor: 'left' }], needs_clarification: false, clarification_reason: null }, snap);
    expect(both.envelope).toBeNull();
  });

  it('without an id, only the windows the command can concern count: minimising skips minimised ones, restoring looks at them', () => {
    const some: ContextSnapshot = { ...snap, running_apps: [{ name: 'XTerm', pid: 5, windows: [win('0xa', 'build', 0), { ...win('0xb', 'vim', 100), minimized: true, state: 'minimized' }] }] };
    const ids = (cmd: Command) => {
      const r = resolveBatch([cmd], some);
      return r.ok ? r.plan.map((c) => ('windowId' in c ? c.windowId : null)) : r.errors.map((e) => e.message);
    };
    expect(ids({ type: 'place_app', app_name: 'XTerm', monitor: 'left' })).toEqual(['0xa']);
    expect(ids({ type: 'set_app_state', app_name: 'XTerm', state: 'minimized' })).toEqual(['0xa']);
    expect(ids({ type: 'set_app_state', app_name: 'XTerm', state: 'normal' })).toEqual(['0xb']);
  });

  it("the question for a planner that cannot tell lists each window by title, id and monitor", () => {
    expect(whichWindow('XTerm', snap.running_apps[0]!.windows)).toBe(
      'XTerm has 3 windows — which one? "build" (window_id 0xa, on LEFT); "vim notes" (window_id 0xb, on LEFT); "logs" (window_id 0xc, on LEFT). Say which with window_id',
    );
  });

  it('window_id picks that window; an app with one window needs none', () => {
    expect(windowIds({ type: 'place_app', app_name: 'XTerm', window_id: '0xb', monitor: 'left' })).toEqual(['0xb']);
    expect(windowIds({ type: 'set_app_state', app_name: 'XClock', state: 'minimized' })).toEqual(['0xd']);
    expect(windowIds({ type: 'focus_app', app_name: 'XTerm', window_id: '0xc' })).toEqual(['0xc']);
    expect(windowIds({ type: 'focus_app', app_name: 'XTerm' })).toEqual(['0xa']);
  });

  it('two windows of one app swap and tile by their ids', () => {
    expect(windowIds({ type: 'swap_apps', app_names: ['XTerm', 'XTerm'], window_ids: ['0xc', '0xa'] })).toEqual([['0xc', '0xa']]);
    expect(windowIds({ type: 'tile_apps', app_names: ['XTerm', 'XClock', 'XTerm'], window_ids: ['0xb', null, '0xa'] })).toEqual([['0xb', '0xd', '0xa']]);
  });

  it('an id no longer open, or another app\'s, is refused and never applied to another window', () => {
    expect(errors({ type: 'place_app', app_name: 'XTerm', window_id: '0xdead', monitor: 'left' })).toEqual([
      'commands[0].window_id: no window 0xdead is open now (it closed after the list it came from); list the windows again and use an id from there',
    ]);
    expect(errors({ type: 'place_app', app_name: 'XTerm', window_id: '0xd', monitor: 'left' })).toEqual(["commands[0].window_id: window 0xd is XClock's, not XTerm's"]);
    expect(errors({ type: 'tile_apps', app_names: ['XTerm', 'XClock'], window_ids: ['0x9', null] })[0]).toMatch(/^commands\[0\]\.window_ids\[0\]: no window 0x9 is open now/);
  });

  it('the same app twice needs distinct window ids; the lists must be as long as each other', () => {
    const bad = (cmd: unknown) => {
      const r = parseInput(cmd);
      return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
    };
    expect(bad({ type: 'swap_apps', app_names: ['XTerm', 'xterm'] })).toEqual(['commands[0].app_names[1]: "xterm" is named twice']);
    expect(bad({ type: 'swap_apps', app_names: ['XTerm', 'XTerm'], window_ids: ['0xa', '0xa'] })).toEqual(['commands[0].window_ids[1]: window 0xa is named twice']);
    expect(bad({ type: 'tile_apps', app_names: ['XTerm', 'XClock'], window_ids: ['0xa'] })).toEqual(['commands[0].window_ids: must have one entry per app name']);
  });
});

describe('when it runs', () => {
  const raw = (id: string, klass: string): RawWindow => ({ id, pid: 1, appKeys: [klass], fallbackName: klass, title: '', bounds: [0, 0, 1, 1], focused: false, minimized: false });
  const desk = { windows: [raw('0xa', 'XTerm'), raw('0xb', 'Chromium')], nameOf: (w: RawWindow) => w.fallbackName };

  it("a window id the system gave to another app's window since is not that window (X reuses ids)", () => {
    expect(stillOpen(desk, '0xa', 'XTerm').id).toBe('0xa');
    expect(() => stillOpen(desk, '0xb', 'XTerm')).toThrow("XTerm's window closed after the snapshot; nothing was changed");
  });
});
