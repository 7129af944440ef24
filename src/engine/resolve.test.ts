import { describe, expect, it } from 'vitest';
import type { Command } from '../protocol/commands';
import type { ContextSnapshot } from '../protocol/context';
import { fixtureTab } from './test-snapshot';
import { describePlanned } from './describe-plan';
import { resolveBatch, type ResolveOptions } from './resolve';

const tab = fixtureTab;

const snapshot = (over: Partial<ContextSnapshot> = {}): ContextSnapshot => ({
  taken_at: '2026-11-26T00:00:00.000Z',
  monitors: [
    { id: '1', name: 'LEFT', roles: ['left', 'main'], bounds: [0, 0, 1920, 1080], work_area: [0, 0, 1920, 1080], primary: true, scale: 1 },
    { id: '2', name: 'RIGHT', roles: ['right'], bounds: [1920, 0, 3840, 1080], work_area: [1920, 0, 3840, 1080], primary: false, scale: 1 },
  ],
  running_apps: [{ name: 'Google Chrome', pid: 10, windows: [{ id: '0x1', title: 'Chrome', bounds: [0, 0, 800, 600], monitor: 'LEFT', focused: true, minimized: false }] }],
  installed_apps: [{ name: 'Google Chrome' }, { name: 'Cursor' }],
  tabs: [tab(1, 'reddit.com'), tab(2, 'github.com'), tab(3, 'reddit.com', 2)],
  presets: ['code space'],
  sources: { chrome: { ok: true, message: 'Chromium' }, windows: { ok: true, message: 'X11' }, presets: { ok: true, message: '' } },
  ...over,
});

const paths = (cmds: Command[], snap = snapshot(), opts: ResolveOptions = {}) => {
  const r = resolveBatch(cmds, snap, opts);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};

describe('resolveBatch', () => {
  it('turns tab indices into the target ids of the snapshot the planner saw', () => {
    const r = resolveBatch([{ type: 'close_tab', tab_indices: [3, 1] }, { type: 'switch_tab', tab_index: 2 }], snapshot());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan[0]!.type === 'close_tab' && r.plan[0]!.tabs.map((t) => t.target_id)).toEqual(['T3', 'T1']);
    expect(r.plan[1]!.type === 'switch_tab' && r.plan[1]!.tab.target_id).toBe('T2');
  });

  it('refuses indices that are not in the snapshot, naming each one', () => {
    expect(paths([{ type: 'close_tab', tab_indices: [2, 9] }, { type: 'switch_tab', tab_index: 4 }])).toEqual([
      'commands[0].tab_indices[1]: tab 9 does not exist (open tabs are 1–3)',
      'commands[1].tab_index: tab 4 does not exist (open tabs are 1–3)',
    ]);
    expect(paths([{ type: 'switch_tab', tab_index: 1 }], snapshot({ tabs: [] }))).toEqual([
      'commands[0].tab_index: tab 1 does not exist (no tabs are open)',
    ]);
  });

  it('normalizes URLs at validation time and refuses non-web schemes before anything runs', () => {
    const ok = resolveBatch([{ type: 'open_url', url: 'chatgpt' }], snapshot());
    expect(ok.ok && ok.plan[0]!.type === 'open_url' && ok.plan[0]!.url).toBe('https://chatgpt.com/');
    expect(paths([{ type: 'list_tabs' }, { type: 'open_url', url: 'javascript:alert(1)' }])).toEqual([
      'commands[1].url: uses the "javascript:" scheme (it runs script); DeskPilot opens only web addresses, and other addresses only when you type them in your own request and confirm',
    ]);
  });

  it('opens a non-web address only when it is in the person\'s own words, and then marks it for a yes', () => {
    const words = 'open file:///home/me/report.pdf please';
    const typed = resolveBatch([{ type: 'open_url', url: 'file:///home/me/report.pdf' }], snapshot(), { typedText: words });
    expect(typed.ok && typed.plan[0]).toMatchObject({ type: 'open_url', url: 'file:///home/me/report.pdf', domain: '' });
    if (typed.ok) {
      expect(describePlanned(typed.plan[0]!, 0)).toMatchObject({
        destructive: true,
        summary: 'open file:///home/me/report.pdf in a new tab (not a web address: opened only because you typed it)',
      });
    }
    // Made up by the planner (not in the words), or with no words at all (exec, a program): refused.
    expect(paths([{ type: 'open_url', url: 'file:///etc/passwd' }], snapshot(), { typedText: words })).toEqual([
      'commands[0].url: uses the "file:" scheme (it shows files from this computer); DeskPilot opens only web addresses, and other addresses only when you type them in your own request and confirm',
    ]);
    expect(resolveBatch([{ type: 'open_url', url: 'file:///home/me/report.pdf' }], snapshot()).ok).toBe(false);
    const web = resolveBatch([{ type: 'open_url', url: 'github.com' }, { type: 'open_url', url: 'chrome://newtab' }], snapshot());
    expect(web.ok && web.plan.map((c) => describePlanned(c, 0).destructive)).toEqual([false, false]);
  });

  it('reports an unreachable Chrome as unavailable, not as bad input', () => {
    const r = resolveBatch(
      [{ type: 'list_tabs' }],
      snapshot({ tabs: [], sources: { chrome: { ok: false, message: 'Chrome is not reachable' }, windows: { ok: true, message: '' }, presets: { ok: true, message: '' } } }),
    );
    expect(r).toEqual({ ok: false, errors: [{ path: 'commands[0]', message: 'Chrome is not reachable', kind: 'unavailable' }] });
  });

  it('refuses app commands when there is no window backend, with its reason', () => {
    const snap = snapshot({ sources: { chrome: { ok: true, message: '' }, windows: { ok: false, message: 'no window backend on this platform yet' }, presets: { ok: true, message: '' } } });
    const r = resolveBatch([{ type: 'focus_app', app_name: 'Google Chrome' }], snap);
    expect(r.ok || r.errors[0]).toEqual({ path: 'commands[0]', message: 'no window backend on this platform yet', kind: 'unavailable' });
  });

  it('checks apps, monitors, presets and bounds against the snapshot', () => {
    expect(paths([{ type: 'focus_app', app_name: 'cursor' }])).toEqual([]); // installed, case-insensitive
    expect(paths([{ type: 'close_app', app_name: 'Cursor' }])).toEqual([
      'commands[0].app_name: no running app is named "Cursor" (running: "Google Chrome")',
    ]);
    expect(paths([{ type: 'place_app', app_name: 'Google Chrome', bounds: [5000, 0, 6000, 500] }])).toEqual([
      'commands[0].bounds: [5000, 0, 6000, 500] lies entirely outside every monitor',
    ]);
    expect(paths([{ type: 'place_app', app_name: 'Google Chrome', monitor: 'right' }], snapshot({ monitors: [] }))).toEqual([
      'commands[0].monitor: no "right" monitor is connected',
    ]);
    expect(paths([{ type: 'activate_preset', preset_name: 'CODE SPACE' }])).toEqual([]);
    expect(paths([{ type: 'activate_preset', preset_name: 'gaming' }])).toEqual([
      'commands[0].preset_name: no preset named "gaming" (presets: "code space")',
    ]);
  });

  it("targets the windows of the snapshot the planner saw, so a vanished one is never replaced by another", () => {
    const snap = snapshot({
      running_apps: [
        { name: 'XTerm', pid: 5, windows: [{ id: '0xa', title: 'top', bounds: [0, 0, 10, 10], monitor: 'LEFT', focused: true, minimized: false }, { id: '0xb', title: 'below', bounds: [0, 0, 10, 10], monitor: 'LEFT', focused: false, minimized: false }] },
        { name: 'Idle', pid: 6, windows: [] },
      ],
    });
    const r = resolveBatch([{ type: 'place_app', app_name: 'xterm', window_id: '0xb', monitor: 'right' }, { type: 'close_app', app_name: 'XTerm' }, { type: 'focus_app', app_name: 'Cursor' }], snap);
    expect(r.ok && r.plan.map((c) => ('windowId' in c ? c.windowId : 'windowIds' in c ? c.windowIds : null))).toEqual(['0xb', ['0xa', '0xb'], null]);
    expect(paths([{ type: 'place_app', app_name: 'Idle', monitor: 'left' }], snap)).toEqual(['commands[0].app_name: Idle has no open window to place']);
  });

  it('"Google Chrome" on a desk with Chromium acts on Chromium and the plan says so; a missing browser is still an error', () => {
    const chromium = snapshot({
      running_apps: [{ name: 'Chromium', pid: 10, windows: [{ id: '0x1', title: 'Chromium', bounds: [0, 0, 800, 600], monitor: 'LEFT', focused: true, minimized: false }] }],
      installed_apps: [{ name: 'Chromium' }, { name: 'Brave' }],
    });
    const r = resolveBatch([{ type: 'place_app', app_name: 'Google Chrome', monitor: 'right' }, { type: 'focus_app', app_name: 'chrome' }], chromium);
    expect(r.ok && r.plan.map((c) => ('app' in c ? c.app : null))).toEqual(['Chromium', 'Chromium']);
    expect(r.ok && describePlanned(r.plan[0]!, 0).summary).toBe('move Chromium (for "Google Chrome") to the right monitor');
    // Only Brave installed: it is launched for "Google Chrome"; nothing of the family at all: refused.
    const brave = snapshot({ running_apps: [], installed_apps: [{ name: 'Brave' }] });
    const b = resolveBatch([{ type: 'focus_app', app_name: 'Google Chrome' }], brave);
    expect(b.ok && b.plan[0]).toMatchObject({ app: 'Brave', windowId: null });
    expect(paths([{ type: 'focus_app', app_name: 'Google Chrome' }], snapshot({ running_apps: [], installed_apps: [{ name: 'Firefox' }] }))).toEqual([
      'commands[0].app_name: no running or installed app is named "Google Chrome"',
    ]);
  });

  it('an installed app\'s name wins over a made-up site: open_url "xclock" is refused when XClock is an app, a known site is not', () => {
    const snap = snapshot({ installed_apps: [{ name: 'XClock' }, { name: 'Slack' }] });
    expect(paths([{ type: 'open_url', url: 'xclock' }], snap)).toEqual([
      'commands[0].url: "xclock" is the app XClock, not a web site; to open it use focus_app with app_name "XClock"',
    ]);
    expect(paths([{ type: 'open_url', url: 'slack' }], snap)).toEqual([]);
    expect(paths([{ type: 'open_url', url: 'xclock.com' }], snap)).toEqual([]);
    expect(paths([{ type: 'open_url', url: 'foo' }], snap)).toEqual([]);
  });

  describe('window layouts', () => {
    const desk = snapshot({
      running_apps: [
        { name: 'Google Chrome', pid: 10, windows: [{ id: '0x1', title: 'Chrome', bounds: [0, 0, 800, 600], monitor: 'LEFT', focused: true, minimized: false }] },
        { name: 'XTerm', pid: 11, windows: [{ id: '0x2', title: 'bash', bounds: [2000, 100, 2600, 500], monitor: 'RIGHT', focused: false, minimized: false }] },
        { name: 'Idle', pid: 12, windows: [] },
      ],
    });
    const plan = (cmds: Command[]) => {
      const r = resolveBatch(cmds, desk);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.plan;
    };

    it('a layout is laid out on the monitor named, else on the one the window is on; next/previous/numbers name one monitor', () => {
      const [a, b, c, d] = plan([
        { type: 'place_app', app_name: 'xterm', layout: 'first_third' },
        { type: 'place_app', app_name: 'Google Chrome', layout: 'top_right', monitor: 'right' },
        { type: 'place_app', app_name: 'XTerm', monitor: 'next' },
        { type: 'place_app', app_name: 'XTerm', monitor: '1' },
      ]);
      expect([a, b, c, d].map((x) => x!.type === 'place_app' && x!.monitor?.name)).toEqual(['RIGHT', 'RIGHT', 'LEFT', 'LEFT']);
      expect(describePlanned(a!, 0).summary).toBe('move XTerm to the first third of RIGHT');
      expect(describePlanned(c!, 0).summary).toBe('move XTerm to the next monitor (LEFT)');
      expect(describePlanned(d!, 0).summary).toBe('move XTerm to monitor 1 (LEFT)');
    });

    it('swap, tile and window states resolve each app to its window; the plan says what happens', () => {
      const [swap, tile, state] = plan([
        { type: 'swap_apps', app_names: ['XTerm', 'google chrome'] },
        { type: 'tile_apps', app_names: ['Google Chrome', 'XTerm'] },
        { type: 'set_app_state', app_name: 'XTerm', state: 'fullscreen' },
      ]);
      expect(swap).toMatchObject({ windows: [{ app: 'XTerm', windowId: '0x2' }, { app: 'Google Chrome', windowId: '0x1' }] });
      expect(tile).toMatchObject({ monitor: { name: 'LEFT' } });
      expect([swap, tile, state].map((x, i) => describePlanned(x!, i).summary)).toEqual([
        'swap XTerm and Google Chrome',
        'tile Google Chrome and XTerm side by side on LEFT',
        'make XTerm full screen',
      ]);
    });

    it('refuses what cannot be done, naming the field', () => {
      const errs = (c: Command) => paths([c], desk);
      expect(errs({ type: 'place_app', app_name: 'XTerm', monitor: '3' })).toEqual(['commands[0].monitor: there is no monitor 3 (2 monitors are connected)']);
      expect(errs({ type: 'place_app', app_name: 'XTerm', monitor: 'top' })).toEqual(['commands[0].monitor: no "top" monitor is connected']);
      expect(errs({ type: 'swap_apps', app_names: ['XTerm', 'Idle'] })).toEqual(['commands[0].app_names[1]: Idle has no open window to place']);
      expect(errs({ type: 'tile_apps', app_names: ['XTerm', 'Nope'] })[0]).toMatch(/^commands\[0\]\.app_names\[1\]: no running app is named "Nope"/);
      expect(errs({ type: 'set_app_state', app_name: 'Nope', state: 'minimized' })[0]).toMatch(/^commands\[0\]\.app_name: no running app is named "Nope"/);
    });
  });
});
