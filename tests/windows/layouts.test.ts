import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createX11WindowBackend } from '../../src/platform/windows/x11/x11-backend';
import { XConnection } from '../../src/platform/windows/x11/x-connection';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { activeWindow, frameOf, isHidden, wmWindows, type Frame } from '../support/x-observe';
import { waitFor, WAIT_MS } from '../support/wait-for';
import { allowedFrame } from './size-hints';

const sameFrame = (a: Frame, b: Frame) => a.every((v, i) => v === b[i]);

// Every window layout operation through the real CLI on a real X desktop (Xvfb with LEFT and
// RIGHT 1920×1080 monitors side by side, openbox, xterm, xclock, Chromium). Each frame is read
// back with xwininfo/xprop and compared exactly with what the window's own size hints allow
// for the rectangle the layout names (xterm sizes in 6×13 character cells).

const RIGHT = { l: 1920, t: 0, r: 3840, b: 1080 };
const X = (f: number) => RIGHT.l + Math.floor(1920 * f);

/** The rectangles of the named layouts on the RIGHT monitor's work area, written out. */
const ON_RIGHT: Array<[string, Frame]> = [
  ['left_half', [1920, 0, 2880, 1080]],
  ['right_half', [2880, 0, 3840, 1080]],
  ['top_half', [1920, 0, 3840, 540]],
  ['bottom_half', [1920, 540, 3840, 1080]],
  ['top_left', [1920, 0, 2880, 540]],
  ['top_right', [2880, 0, 3840, 540]],
  ['bottom_left', [1920, 540, 2880, 1080]],
  ['bottom_right', [2880, 540, 3840, 1080]],
  ['first_third', [1920, 0, X(1 / 3), 1080]],
  ['center_third', [X(1 / 3), 0, X(2 / 3), 1080]],
  ['last_third', [X(2 / 3), 0, 3840, 1080]],
  ['first_two_thirds', [1920, 0, X(2 / 3), 1080]],
  ['last_two_thirds', [X(1 / 3), 0, 3840, 1080]],
  ['top_left_sixth', [1920, 0, X(1 / 3), 540]],
  ['top_center_sixth', [X(1 / 3), 0, X(2 / 3), 540]],
  ['top_right_sixth', [X(2 / 3), 0, 3840, 540]],
  ['bottom_left_sixth', [1920, 540, X(1 / 3), 1080]],
  ['bottom_center_sixth', [X(1 / 3), 540, X(2 / 3), 1080]],
  ['bottom_right_sixth', [X(2 / 3), 540, 3840, 1080]],
  ['maximize', [1920, 0, 3840, 1080]],
  // 90% of 1920 × 1080, centred.
  ['almost_maximize', [2016, 54, 3744, 1026]],
];

describeDesktop('window layouts on a real X11 desktop (exact frames within size hints)', () => {
  let desk: Desktop;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let ids: { xterm: string; xclock: string; chromium: string };

  const exec = async (json: unknown) => {
    const r = await runCli(['exec', JSON.stringify(json)], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.json;
  };
  const hex = (pid: number) => `0x${wmWindows(env).find((w) => w.pid === pid)!.id.toString(16)}`;
  const states = (id: string) => execFileSync('xprop', ['-id', id, '_NET_WM_STATE'], { env, encoding: 'utf8' });
  const extentsOf = (id: string) => /= (.*)/.exec(execFileSync('xprop', ['-id', id, '_NET_FRAME_EXTENTS'], { env, encoding: 'utf8' }))?.[1];
  const put = (app: string, bounds: number[]) => exec({ type: 'place_app', app_name: app, bounds });

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm', 'xclock'], chrome: true });
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-layouts-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_LLM_MODEL: '' };
    ids = { xterm: hex(desk.pids.apps.xterm!), xclock: hex(desk.pids.apps.xclock!), chromium: hex(desk.chrome!.pid) };
  });

  afterAll(async () => {
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(ON_RIGHT)('layout %s on the right monitor', async (layout, rect) => {
    const r = await exec({ type: 'place_app', app_name: 'XTerm', layout, monitor: 'right' });
    expect(r.results[0].message).toMatch(/^XTerm → .+ of RIGHT/);
    expect(frameOf(env, ids.xterm)).toEqual(allowedFrame(env, ids.xterm, rect));
  });

  it('center keeps the size; larger and smaller step a tenth of the work area around the centre', async () => {
    await put('XClock', [2000, 100, 2600, 500]);
    const size = (f: Frame) => [f[2] - f[0], f[3] - f[1]];
    await exec({ type: 'place_app', app_name: 'XClock', layout: 'center' });
    const [w, h] = size(frameOf(env, ids.xclock));
    expect(frameOf(env, ids.xclock)).toEqual([RIGHT.l + Math.floor((1920 - w!) / 2), Math.floor((1080 - h!) / 2), RIGHT.l + Math.floor((1920 - w!) / 2) + w!, Math.floor((1080 - h!) / 2) + h!]);
    const before = frameOf(env, ids.xclock);
    await exec({ type: 'place_app', app_name: 'XClock', layout: 'larger' });
    expect(size(frameOf(env, ids.xclock))).toEqual([w! + 192, h! + 108]);
    await exec({ type: 'place_app', app_name: 'XClock', layout: 'smaller' });
    expect(frameOf(env, ids.xclock)).toEqual(before);
  });

  it('next, previous and a monitor number move a window keeping its relative position and size', async () => {
    await put('XTerm', [2020, 100, 2620, 500]);
    const start = frameOf(env, ids.xterm);
    const r = await exec({ type: 'place_app', app_name: 'XTerm', monitor: 'next' });
    expect(r.results[0].message).toMatch(/^XTerm → the next monitor \(LEFT\)/);
    expect(frameOf(env, ids.xterm)).toEqual([start[0] - 1920, start[1], start[2] - 1920, start[3]]);
    await exec({ type: 'place_app', app_name: 'XTerm', monitor: 'previous' });
    expect(frameOf(env, ids.xterm)).toEqual(start);
    await exec({ type: 'place_app', app_name: 'XTerm', monitor: '1' });
    expect(frameOf(env, ids.xterm)[0]).toBe(start[0] - 1920);
    await exec({ type: 'place_app', app_name: 'XTerm', monitor: '2' });
    expect(frameOf(env, ids.xterm)).toEqual(start);
  });

  it('swap: each window takes the other\'s frame, and both come to the front', async () => {
    await put('XTerm', [300, 200, 900, 600]);
    await put('XClock', [2400, 300, 2700, 700]);
    const [xterm, xclock] = [frameOf(env, ids.xterm), frameOf(env, ids.xclock)];
    const r = await exec({ type: 'swap_apps', app_names: ['XTerm', 'XClock'] });
    expect(r.plan[0].summary).toBe('swap XTerm and XClock');
    expect(frameOf(env, ids.xterm)).toEqual(allowedFrame(env, ids.xterm, xclock));
    expect(frameOf(env, ids.xclock)).toEqual(allowedFrame(env, ids.xclock, xterm));
  });

  it('tile: the windows fill the work area in equal columns, in the order named, the last one focused', async () => {
    const r = await exec({ type: 'tile_apps', app_names: [(await runCli(['context', '--json', '--no-summaries'], { env })).json.running_apps.find((a: { pid: number }) => a.pid === desk.chrome!.pid).name, 'XTerm', 'XClock'], monitor: 'right' });
    expect(r.results[0].message).toMatch(/^Tiled 3 apps side by side on RIGHT: /);
    expect(frameOf(env, ids.chromium)).toEqual(allowedFrame(env, ids.chromium, [1920, 0, X(1 / 3), 1080]));
    expect(frameOf(env, ids.xterm)).toEqual(allowedFrame(env, ids.xterm, [X(1 / 3), 0, X(2 / 3), 1080]));
    expect(frameOf(env, ids.xclock)).toEqual(allowedFrame(env, ids.xclock, [X(2 / 3), 0, 3840, 1080]));
    expect(activeWindow(env)).not.toBe(parseInt(ids.chromium, 16));
  });

  it('minimise and restore; undo of a placement puts a minimised window back minimised', async () => {
    await put('XTerm', [400, 300, 1000, 700]);
    const frame = frameOf(env, ids.xterm);
    await exec({ type: 'set_app_state', app_name: 'XTerm', state: 'minimized' });
    expect(isHidden(env, ids.xterm)).toBe(true);
    await exec({ type: 'set_app_state', app_name: 'XTerm', state: 'normal' });
    expect(isHidden(env, ids.xterm)).toBe(false);
    // Openbox animates a restore from the taskbar's corner: the frame ends where it was.
    await waitFor('xterm restored to its frame', () => sameFrame(frameOf(env, ids.xterm), frame));
    expect(activeWindow(env)).toBe(parseInt(ids.xterm, 16));

    await exec({ type: 'set_app_state', app_name: 'XTerm', state: 'minimized' });
    await put('XTerm', [2100, 100, 2700, 500]);
    expect(isHidden(env, ids.xterm)).toBe(false);
    const undo = await runCli(['undo'], { env });
    expect(undo.stdout).toMatch(/XTerm back where it was.*, minimised again/);
    expect(isHidden(env, ids.xterm)).toBe(true);
    // A minimised window's frame is wherever openbox's iconify animation left it: where it is
    // back at shows when it is restored.
    await exec({ type: 'set_app_state', app_name: 'XTerm', state: 'normal' });
    await waitFor('xterm restored to its old frame', () => sameFrame(frameOf(env, ids.xterm), frame));
  });

  it('true full screen (EWMH _NET_WM_STATE_FULLSCREEN): the whole monitor, no frame; undo leaves it where it was', async () => {
    await put('XTerm', [2100, 100, 2700, 500]);
    const frame = frameOf(env, ids.xterm);
    const r = await exec({ type: 'set_app_state', app_name: 'XTerm', state: 'fullscreen' });
    expect(r.results[0].message).toBe('Made XTerm full screen');
    expect(states(ids.xterm)).toContain('_NET_WM_STATE_FULLSCREEN');
    expect(frameOf(env, ids.xterm)).toEqual([1920, 0, 3840, 1080]);
    expect(activeWindow(env)).toBe(parseInt(ids.xterm, 16));
    await runCli(['undo'], { env });
    expect(states(ids.xterm)).not.toContain('_NET_WM_STATE_FULLSCREEN');
    expect(frameOf(env, ids.xterm)).toEqual(frame);
  });

  it('a window moved while the window manager is still re-decorating it after full screen ends at the frame asked for', async () => {
    await put('XTerm', [2100, 100, 2700, 500]);
    const frame = frameOf(env, ids.xterm);
    await exec({ type: 'set_app_state', app_name: 'XTerm', state: 'fullscreen' });
    // Openbox writes _NET_WM_STATE first and only then gives the window its decorations back and
    // moves it; a loaded machine can run a placement in between. Hold openbox there: stop it,
    // queue the real request to leave full screen, and write the state it writes first. The
    // placement then measures the full-screen decorations (none) and asks for its move; only
    // then does openbox run again, leaving full screen and then handling that move.
    const ob = desk.pids.openbox;
    const backend = createX11WindowBackend({ display: desk.display, settleTimeoutMs: WAIT_MS });
    const send = XConnection.prototype.sendToRoot;
    const spy = vi.spyOn(XConnection.prototype, 'sendToRoot').mockImplementation(async function (this: XConnection, ...args) {
      await send.apply(this, args);
      process.kill(ob, 'SIGCONT');
      await waitFor('openbox to redecorate xterm', () => extentsOf(ids.xterm) !== '0, 0, 0, 0');
    });
    process.kill(ob, 'SIGSTOP');
    try {
      execFileSync('wmctrl', ['-ir', ids.xterm, '-b', 'remove,fullscreen'], { env });
      execFileSync('xprop', ['-id', ids.xterm, '-remove', '_NET_WM_STATE'], { env });
      expect(await backend.setFrameBounds(ids.xterm, frame)).toEqual(frame);
      expect(frameOf(env, ids.xterm)).toEqual(frame);
    } finally {
      spy.mockRestore();
      process.kill(ob, 'SIGCONT');
      await backend.dispose();
    }
  });
});
