// The X11 window backend against a real (virtual) desktop: Xvfb with two monitors, openbox,
// xterm, xclock and Chromium. Every effect is checked with independent tools (xwininfo, xprop,
// wmctrl, xrandr, ps), never through the backend itself.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import x11 from 'x11';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { WindowGoneError, WindowsUnavailableError } from '../../src/engine/errors';
import { sleep } from '../../src/engine/sleep';
import type { RawWindow, Rect4 } from '../../src/engine/ports';
import { createX11WindowBackend, type X11WindowBackend } from '../../src/platform/windows/x11/x11-backend';
import { XConnection } from '../../src/platform/windows/x11/x-connection';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { stopGroup } from '../support/process-group';
import { waitFor, WAIT_MS } from '../support/wait-for';

const XTERM_STEP = { width: 6, height: 13 };


function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { env, timeout: WAIT_MS }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd} ${args.join(' ')}: ${err.message} ${stderr}`)) : resolve(stdout),
    ),
  );
}


const num = (id: string) => Number.parseInt(id, 16);

describeDesktop('X11 window backend on a real desktop', () => {
  let desk: Desktop;
  let backend: X11WindowBackend;
  const extraBackends: X11WindowBackend[] = [];
  /** Stops of the bare X servers some tests start; run again in afterAll in case a test failed midway. */
  const bareStops: Array<() => Promise<void>> = [];

  const tool = (cmd: string, ...args: string[]) => run(cmd, args, desk.env);

  // ----- independent observation -----

  /** Outer frame per xwininfo ("Absolute upper-left" is the client's corner) and xprop's frame extents. */
  async function toolFrame(id: string): Promise<Rect4> {
    const [info, extents] = await Promise.all([tool('xwininfo', '-id', id), tool('xprop', '-id', id, '_NET_FRAME_EXTENTS')]);
    const field = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(info)![1]);
    const [l, r, t, b] = /=\s*(.*)/.exec(extents)?.[1]!.split(',').map(Number) ?? [0, 0, 0, 0];
    const x = field('Absolute upper-left X');
    const y = field('Absolute upper-left Y');
    return [x - l!, y - t!, x + field('Width') + r!, y + field('Height') + b!];
  }

  /** wmctrl -lp rows: id, pid, title. */
  async function wmctrlWindows() {
    const out = await tool('wmctrl', '-lp');
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [id, , pid, , ...title] = line.split(/\s+/);
        return { xid: num(id!), pid: Number(pid), title: title.join(' ') };
      });
  }

  async function windowOfPid(pid: number): Promise<string> {
    const row = (await wmctrlWindows()).find((w) => w.pid === pid);
    if (!row) throw new Error(`no window for pid ${pid}`);
    return `0x${row.xid.toString(16)}`;
  }

  async function rootWindowProp(name: string): Promise<number[]> {
    const out = await tool('xprop', '-root', name);
    return [...(/#\s*(.*)$/m.exec(out)?.[1] ?? '').matchAll(/0x[0-9a-f]+/g)].map((m) => num(m[0]));
  }

  const activeWindow = async () => (await rootWindowProp('_NET_ACTIVE_WINDOW'))[0];
  const stackingTop = async () => (await rootWindowProp('_NET_CLIENT_LIST_STACKING')).at(-1);
  const netWmState = (id: string) => tool('xprop', '-id', id, '_NET_WM_STATE');

  async function listed(id: string): Promise<RawWindow> {
    const w = (await backend.listWindows()).find((x) => num(x.id) === num(id));
    if (!w) throw new Error(`backend does not list ${id}`);
    return w;
  }

  /** Running per ps: false once gone or a zombie. */
  async function psAlive(pid: number): Promise<boolean> {
    const out = await tool('ps', '-o', 'stat=', '-p', String(pid)).catch(() => '');
    return out.trim() !== '' && !out.trim().startsWith('Z');
  }

  let xterm: string;
  let xclock: string;
  let chromium: string;

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm', 'xclock'], chrome: true });
    // The window manager gets as long as it needs on a busy machine to apply what is asked.
    backend = createX11WindowBackend({ display: desk.display, settleTimeoutMs: WAIT_MS });
    [xterm, xclock, chromium] = await Promise.all([
      windowOfPid(desk.pids.apps.xterm!),
      windowOfPid(desk.pids.apps.xclock!),
      windowOfPid(desk.chrome!.pid),
    ]);
    // Freshly mapped windows still settle for a moment (focus passes between them, Chromium
    // sizes itself): compare against a desktop that holds still.
    let last = '';
    await waitFor('the desktop to settle', async () => {
      const now = JSON.stringify([await activeWindow(), await wmctrlWindows(), ...(await Promise.all([xterm, xclock, chromium].map(toolFrame)))]);
      const stable = now === last;
      last = now;
      if (!stable) await sleep(100);
      return stable;
    });
  });

  afterAll(async () => {
    await Promise.all([backend, ...extraBackends].map((b) => b?.dispose()));
    await Promise.all(bareStops.map((stop) => stop()));
    await desk?.stop();
  });

  it('describes itself with the window manager named by the supporting WM check window', async () => {
    const check = (await rootWindowProp('_NET_SUPPORTING_WM_CHECK'))[0]!;
    const wmName = /=\s*"(.*)"/.exec(await tool('xprop', '-id', String(check), '_NET_WM_NAME'))![1];
    expect(wmName).toBe('Openbox');
    expect(await backend.describe()).toBe(`X11 (${wmName}) on ${desk.display}`);
  });

  it('lists both monitors as xrandr defines them, with work areas', async () => {
    const out = await tool('xrandr', '--listmonitors');
    const fromXrandr = [...out.matchAll(/^\s*\d+:\s+[+*]*(\S+)\s+(\d+)\/\d+x(\d+)\/\d+\+(\d+)\+(\d+)/gm)].map((m) => {
      const [w, h, x, y] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
      return { name: m[1], bounds: [x, y, x + w, y + h] };
    });
    expect(fromXrandr.map((m) => m.name)).toEqual(['LEFT', 'RIGHT']);

    const monitors = await backend.listMonitors();
    expect(monitors.map((m) => ({ name: m.name, bounds: m.bounds }))).toEqual(fromXrandr);
    expect(monitors.map((m) => m.id)).toEqual(['LEFT', 'RIGHT']);
    // No panel on this desktop: each work area is its monitor (openbox's _NET_WORKAREA is the whole screen).
    expect(await tool('xprop', '-root', '_NET_WORKAREA')).toMatch(/= 0, 0, 3840, 1080/);
    for (const m of monitors) {
      expect(m.workArea).toEqual(m.bounds);
      expect(m.scale).toBe(1);
    }
    // xrandr marks a primary monitor with '*'; none is marked here.
    expect(out).not.toContain('*');
    expect(monitors.some((m) => m.primary)).toBe(false);
  });

  it('lists the app windows with pid, title, WM_CLASS keys and outer frames as xwininfo sees them', async () => {
    const t0 = performance.now();
    const windows = await backend.listWindows();
    console.log(`listWindows (cold-ish, ${windows.length} windows): ${(performance.now() - t0).toFixed(2)} ms`);

    const fromWmctrl = await wmctrlWindows();
    expect(windows.map((w) => num(w.id)).sort()).toEqual(fromWmctrl.map((w) => w.xid).sort());

    for (const row of fromWmctrl) {
      const id = `0x${row.xid.toString(16)}`;
      const w = windows.find((x) => num(x.id) === row.xid)!;
      expect(w.id).toBe(id);
      expect(w.pid).toBe(row.pid);
      expect(w.title).toBe(row.title);
      const wmClass = /=\s*"(.*)", "(.*)"/.exec(await tool('xprop', '-id', id, 'WM_CLASS'))!;
      expect(w.appKeys).toEqual([wmClass[1], wmClass[2]]);
      expect(w.fallbackName).toBe(wmClass[2]);
      expect(w.bounds).toEqual(await toolFrame(id));
      expect(w.minimized).toBe(false);
    }

    const term = windows.find((w) => w.id === xterm)!;
    expect(term.appKeys).toEqual(['xterm', 'XTerm']);
    expect(term.pid).toBe(desk.pids.apps.xterm);
    expect(windows.find((w) => w.id === chromium)!.appKeys.at(-1)).toMatch(/^Chromium/);

    // Topmost first: the reverse of the WM's bottom-to-top stacking list.
    expect(windows.map((w) => num(w.id))).toEqual((await rootWindowProp('_NET_CLIENT_LIST_STACKING')).reverse());
    const active = await activeWindow();
    expect(windows.filter((w) => w.focused).map((w) => num(w.id))).toEqual([active]);

    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await backend.listWindows();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`listWindows warm (${windows.length} windows): median ${times[10]!.toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms`);
  });

  it('places xterm on the right monitor: exact position, size within one character cell', async () => {
    const target: Rect4 = [1920 + 100, 100, 1920 + 900, 700];
    const t0 = performance.now();
    const got = await backend.setFrameBounds(xterm, target);
    console.log(`setFrameBounds xterm: ${(performance.now() - t0).toFixed(1)} ms → ${got.join(',')}`);

    const seen = await toolFrame(xterm);
    expect(got).toEqual(seen);
    expect(seen.slice(0, 2)).toEqual(target.slice(0, 2));
    const dw = target[2] - seen[2];
    const dh = target[3] - seen[3];
    expect(dw).toBeGreaterThanOrEqual(0);
    expect(dw).toBeLessThan(XTERM_STEP.width);
    expect(dh).toBeGreaterThanOrEqual(0);
    expect(dh).toBeLessThan(XTERM_STEP.height);
    expect((await listed(xterm)).bounds).toEqual(seen);
  });

  it('moves Chromium (which draws its own frame) across monitors exactly', async () => {
    expect(await tool('xprop', '-id', chromium, '_NET_FRAME_EXTENTS')).toMatch(/= 0, 0, 0, 0/);
    const right: Rect4 = [1920 + 200, 50, 1920 + 1400, 850];
    expect(await backend.setFrameBounds(chromium, right)).toEqual(right);
    expect(await toolFrame(chromium)).toEqual(right);

    const left: Rect4 = [100, 120, 1300, 920];
    expect(await backend.setFrameBounds(chromium, left)).toEqual(left);
    expect(await toolFrame(chromium)).toEqual(left);
  });

  it('moves a fixed-content window (xclock) and reports what it got', async () => {
    const target: Rect4 = [1920 + 1000, 600, 1920 + 1300, 900];
    const got = await backend.setFrameBounds(xclock, target);
    expect(got).toEqual(await toolFrame(xclock));
    expect(got.slice(0, 2)).toEqual(target.slice(0, 2));
  });

  it('focuses windows: the active window changes; xclock, which refuses focus, is raised', async () => {
    await backend.focus(xterm);
    expect(await activeWindow()).toBe(num(xterm));

    await backend.focus(chromium);
    expect(await activeWindow()).toBe(num(chromium));
    expect(await stackingTop()).toBe(num(chromium));

    await backend.focus(xclock);
    expect(await stackingTop()).toBe(num(xclock));

    await backend.focus(xterm);
    expect(await activeWindow()).toBe(num(xterm));
    expect((await listed(xterm)).focused).toBe(true);
  });

  it('focused() reads the active window alone: the same window, title and keys as the full listing', async () => {
    await backend.focus(chromium);
    await waitFor('Chromium to be active', async () => (await activeWindow()) === num(chromium));
    const alone = await backend.focused();
    expect(alone?.id).toBe(chromium);
    expect(alone).toEqual(await listed(chromium));
    await backend.focus(xterm);
    await waitFor('xterm to be reported focused', async () => (await backend.focused())?.id === xterm);
  });

  it('restores a minimised window, and focus brings one back too', async () => {
    await tool('xdotool', 'windowminimize', xterm);
    await waitFor('xterm to be hidden', async () => /_NET_WM_STATE_HIDDEN/.test(await netWmState(xterm)));
    expect((await listed(xterm)).minimized).toBe(true);

    await backend.restore(xterm);
    expect(await netWmState(xterm)).not.toMatch(/HIDDEN/);
    expect(await tool('xwininfo', '-id', xterm)).toMatch(/Map State: IsViewable/);
    expect((await listed(xterm)).minimized).toBe(false);

    await tool('xdotool', 'windowminimize', xterm);
    await waitFor('xterm to be hidden again', async () => /_NET_WM_STATE_HIDDEN/.test(await netWmState(xterm)));
    await backend.focus(xterm);
    expect(await netWmState(xterm)).not.toMatch(/HIDDEN/);
    expect(await activeWindow()).toBe(num(xterm));
  });

  it('restores a maximised window, after which bounds apply; setFrameBounds alone copes too', async () => {
    const maximize = async () => {
      await tool('wmctrl', '-ir', xterm, '-b', 'add,maximized_vert,maximized_horz');
      await waitFor('xterm to be maximised', async () => /MAXIMIZED_VERT.*MAXIMIZED_HORZ|MAXIMIZED_HORZ.*MAXIMIZED_VERT/.test(await netWmState(xterm)));
    };

    await maximize();
    await backend.restore(xterm);
    expect(await netWmState(xterm)).not.toMatch(/MAXIMIZED/);
    const target: Rect4 = [300, 200, 1100, 800];
    const got = await backend.setFrameBounds(xterm, target);
    expect(got).toEqual(await toolFrame(xterm));
    expect(got.slice(0, 2)).toEqual([300, 200]);

    await maximize();
    const direct = await backend.setFrameBounds(xterm, [1920 + 300, 200, 1920 + 1100, 800]);
    expect(await netWmState(xterm)).not.toMatch(/MAXIMIZED/);
    expect(direct).toEqual(await toolFrame(xterm));
    expect(direct.slice(0, 2)).toEqual([1920 + 300, 200]);
    // The frame extents come back with the decorations: outer-frame semantics still hold.
    expect(await tool('xprop', '-id', xterm, '_NET_FRAME_EXTENTS')).toMatch(/= 1, 1, 20, 5/);
  });

  it('derives per-monitor work areas from a dock strut, as openbox maximises windows', async () => {
    // A 50 px panel along the bottom of the LEFT monitor only.
    const dock = await openDock(desk.display, [0, 0, 0, 50, 0, 0, 0, 0, 0, 0, 0, 1919], [0, 1030, 1920, 50]);
    try {
      await waitFor('openbox to apply the strut', async () => /= 0, 0, 3840, 1030/.test(await tool('xprop', '-root', '_NET_WORKAREA')));
      const monitors = await backend.listMonitors();
      const [left, right] = [monitors.find((m) => m.name === 'LEFT')!, monitors.find((m) => m.name === 'RIGHT')!];
      expect(left.workArea).toEqual([0, 0, 1920, 1030]);
      expect(right.workArea).toEqual([1920, 0, 3840, 1080]);
      expect((await backend.listWindows()).some((w) => num(w.id) === dock.xid)).toBe(false);

      // Independent check: a window maximised by openbox fills exactly its monitor's work area.
      for (const m of [left, right]) {
        await tool('wmctrl', '-ir', xterm, '-b', 'remove,maximized_vert,maximized_horz');
        await tool('wmctrl', '-ir', xterm, '-e', `0,${m.bounds[0] + 50},${m.bounds[1] + 50},400,300`);
        await waitFor(`xterm on ${m.name}`, async () => {
          const [l] = await toolFrame(xterm);
          return (l >= m.bounds[0] && l < m.bounds[2]) || undefined;
        });
        await tool('wmctrl', '-ir', xterm, '-b', 'add,maximized_vert,maximized_horz');
        await waitFor(`xterm maximised on ${m.name}`, async () => /MAXIMIZED_VERT/.test(await netWmState(xterm)));
        const frame = await waitFor('the maximised frame to settle', async () => {
          const f = await toolFrame(xterm);
          return f[2] - f[0] === m.workArea[2] - m.workArea[0] ? f : undefined;
        });
        expect(frame).toEqual(m.workArea);
      }
      await backend.restore(xterm);
    } finally {
      await dock.close();
    }
    await waitFor('the strut to go', async () => /= 0, 0, 3840, 1080/.test(await tool('xprop', '-root', '_NET_WORKAREA')));
    expect((await backend.listMonitors()).map((m) => m.workArea)).toEqual([
      [0, 0, 1920, 1080],
      [1920, 0, 3840, 1080],
    ]);
  });

  it('closes xclock gracefully: its window goes and its process exits', async () => {
    const pid = desk.pids.apps.xclock!;
    expect(await backend.processAlive(pid)).toBe(true);
    expect(await psAlive(pid)).toBe(true);

    await backend.close(xclock);
    await waitFor('xclock to exit', async () => !(await psAlive(pid)));
    expect((await wmctrlWindows()).some((w) => w.xid === num(xclock))).toBe(false);
    expect(await backend.processAlive(pid)).toBe(false);
    expect(await backend.processAlive(desk.pids.apps.xterm!)).toBe(true);
    expect((await backend.listWindows()).some((w) => w.id === xclock)).toBe(false);
  });

  it('throws WindowGoneError for a vanished window and for ids that never existed', async () => {
    for (const id of [xclock, '0x1fffff0', 'not-a-window']) {
      await expect(backend.focus(id)).rejects.toBeInstanceOf(WindowGoneError);
      await expect(backend.setFrameBounds(id, [0, 0, 400, 300])).rejects.toBeInstanceOf(WindowGoneError);
      await expect(backend.close(id)).rejects.toBeInstanceOf(WindowGoneError);
      await expect(backend.restore(id)).rejects.toBeInstanceOf(WindowGoneError);
    }
    // Still usable afterwards.
    expect((await backend.listWindows()).length).toBeGreaterThan(0);
  });

  it('turns X errors into rejected promises instead of crashing, and keeps the connection usable', async () => {
    const conn = await XConnection.open(desk.display, WAIT_MS);
    try {
      const err = await conn.getProperty(0x1fffff0, 39).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ error: 3 }); // BadWindow
      const badAtom = await conn.atomName(0x7ffffff).then(
        () => null,
        (e: unknown) => e,
      );
      expect(badAtom).toMatchObject({ error: 5 }); // BadAtom
      expect(conn.alive).toBe(true);
      await conn.sync();
    } finally {
      await conn.close();
    }
    expect((await backend.listWindows()).some((w) => w.id === xterm)).toBe(true);
  });

  it('reconnects by itself after its connection drops', async () => {
    const probe = createX11WindowBackend({ display: desk.display });
    extraBackends.push(probe);
    expect((await probe.listWindows()).some((w) => w.id === xterm)).toBe(true);
    // Cut the socket under it, as a restarting server would.
    const session = (probe as unknown as { current: { conn: XConnection } }).current;
    (session.conn.client.stream as unknown as { destroy(): void }).destroy();
    await waitFor('the drop to be noticed', async () => !session.conn.alive);
    expect((await probe.listWindows()).some((w) => w.id === xterm)).toBe(true);
  });

  it('works again with a new backend after dispose; the disposed one refuses', async () => {
    const first = createX11WindowBackend({ display: desk.display });
    expect(await first.describe()).toMatch(/^X11 \(Openbox\)/);
    await first.dispose();
    await expect(first.listWindows()).rejects.toBeInstanceOf(WindowsUnavailableError);
    const second = createX11WindowBackend({ display: desk.display });
    extraBackends.push(second);
    expect((await second.listWindows()).map((w) => w.id)).toContain(xterm);
  });

  it('says clearly when there is no display, no server, or no EWMH window manager', async () => {
    vi.stubEnv('WAYLAND_DISPLAY', '');
    vi.stubEnv('XDG_SESSION_TYPE', 'x11');
    try {
      const none = createX11WindowBackend({ display: '' });
      await expect(none.listWindows()).rejects.toThrow(new WindowsUnavailableError('window placement needs an X11 display: DISPLAY is not set'));
      vi.stubEnv('XDG_SESSION_TYPE', 'wayland');
      await expect(none.listMonitors()).rejects.toThrow(/^window placement needs X11 \(or XWayland apps\)/);
    } finally {
      vi.unstubAllEnvs();
    }

    const bare = await startBareX();
    try {
      const nowm = createX11WindowBackend({ display: bare.display });
      extraBackends.push(nowm);
      const err = await nowm.listWindows().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WindowsUnavailableError);
      expect((err as Error).message).toMatch(/needs a window manager that supports EWMH.*none is running on the X display/);
    } finally {
      await bare.stop();
    }
    const gone = createX11WindowBackend({ display: bare.display });
    extraBackends.push(gone);
    await expect(gone.describe()).rejects.toThrow(new RegExp(`^cannot connect to the X display ${bare.display}`));
  });

  it('reconnects to a restarted X server on the same display (fresh atoms, not the old cache)', async () => {
    const first = await startBareX({ wm: true });
    const b = createX11WindowBackend({ display: first.display });
    extraBackends.push(b);
    expect(await b.describe()).toBe(`X11 (Openbox) on ${first.display}`);
    await first.stop();
    await waitFor('the connection to notice', async () => {
      const e = await b.listWindows().catch((err: unknown) => err);
      return e instanceof WindowsUnavailableError || undefined;
    });

    // Same display number; interning junk first shifts every atom number the WM gets.
    const second = await startBareX({ wm: true, display: first.display, junkAtoms: 300 });
    try {
      const wmCheckAtom = Number(/^(\d+)/.exec(await run('xlsatoms', ['-name', '_NET_SUPPORTING_WM_CHECK'], { ...process.env, DISPLAY: second.display }))?.[1] ?? NaN);
      console.log(`restarted server: _NET_SUPPORTING_WM_CHECK is atom ${wmCheckAtom} now`);
      expect(await b.describe()).toBe(`X11 (Openbox) on ${second.display}`);
      expect(await b.listWindows()).toEqual([]);
      expect((await b.listMonitors()).length).toBe(1);
    } finally {
      await b.dispose();
      await second.stop();
    }
  });

  // ----- fixtures for the tests above -----

  /** A dock window with a strut, made over a separate raw X connection (not the backend). */
  async function openDock(display: string, strut: number[], [x, y, w, h]: number[]): Promise<{ xid: number; close(): Promise<void> }> {
    const conn = await XConnection.open(display, WAIT_MS);
    const X = conn.client as unknown as {
      AllocID(): number;
      CreateWindow(...args: unknown[]): void;
      ChangeProperty(mode: number, wid: number, prop: number, type: number, format: number, data: unknown): void;
      MapWindow(wid: number): void;
    };
    const [typeAtom, dockAtom, strutAtom] = await Promise.all([
      conn.internAtom('_NET_WM_WINDOW_TYPE'),
      conn.internAtom('_NET_WM_WINDOW_TYPE_DOCK'),
      conn.internAtom('_NET_WM_STRUT_PARTIAL'),
    ]);
    const xid = X.AllocID();
    X.CreateWindow(xid, conn.root, x, y, w, h, 0, 0, 0, 0, {});
    X.ChangeProperty(0, xid, typeAtom, 4 /* ATOM */, 32, [dockAtom]);
    X.ChangeProperty(0, xid, strutAtom, 6 /* CARDINAL */, 32, strut);
    X.MapWindow(xid);
    await conn.sync();
    // Closing the connection destroys the window, and openbox drops the strut.
    return { xid, close: () => conn.close() };
  }

  /**
   * A second, bare X server (optionally with openbox) for connection-failure and restart cases.
   * It runs on a display number far above what `-displayfd` hands out, so no parallel test file
   * grabs it while this one restarts it or checks that nothing answers there any more.
   */
  async function startBareX(opts: { wm?: boolean; display?: string; junkAtoms?: number } = {}) {
    const procs: ChildProcess[] = [];
    const launch = (cmd: string, args: string[], env: NodeJS.ProcessEnv, stdio: Array<'ignore' | 'pipe'> = ['ignore', 'ignore', 'ignore']) => {
      const child = spawn(cmd, args, { env, detached: true, stdio });
      child.on('error', () => {});
      procs.push(child);
      return child;
    };
    const stop = async () => {
      for (const p of [...procs].reverse()) {
        if (p.exitCode !== null || p.signalCode !== null) continue;
        await stopGroup(p.pid!);
      }
    };
    bareStops.push(stop);
    const lockExists = (n: number) => readFile(`/tmp/.X${n}-lock`).then(() => true, () => false);
    /** Starts Xvfb on :n; resolves false if it exits first (the display was taken). */
    const tryXvfb = async (n: number): Promise<boolean> => {
      const xvfb = launch('Xvfb', [`:${n}`, '-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp', '-noreset'], process.env, [
        'ignore',
        'ignore',
        'ignore',
        'pipe',
      ]);
      let out = '';
      xvfb.stdio[3]!.on('data', (d: Buffer) => (out += String(d)));
      // With a display given, -displayfd still reports it once this server (not another) is ready.
      const ready = await waitFor(`Xvfb on :${n}`, async () => (/^\d+\n/.test(out) ? 'up' : xvfb.exitCode !== null || xvfb.signalCode !== null ? 'exited' : undefined));
      return ready === 'up';
    };
    try {
      let display = opts.display;
      if (display) {
        const n = Number(display.slice(1));
        // The old server removes its lock file as it exits.
        await waitFor('the display to be free', async () => !(await lockExists(n)));
        if (!(await tryXvfb(n))) throw new Error(`could not restart Xvfb on ${display}`);
      } else {
        for (let attempt = 0; !display; attempt++) {
          const n = 200 + Math.floor(Math.random() * 800);
          if (!(await lockExists(n)) && (await tryXvfb(n))) display = `:${n}`;
          else if (attempt > 10) throw new Error('no free display number for a bare Xvfb');
        }
      }
      const env = { ...process.env, DISPLAY: display };
      if (opts.junkAtoms) await internJunk(display, opts.junkAtoms);
      if (opts.wm) {
        launch('openbox', ['--sm-disable'], env);
        await waitFor('openbox', async () => /window id #/.test(await run('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], env).catch(() => '')));
      }
      return { display, stop };
    } catch (err) {
      await stop();
      throw err;
    }
  }

  async function internJunk(display: string, count: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const client = x11.createClient({ display }, (err) => {
        if (err) return reject(err);
        let left = count;
        for (let i = 0; i < count; i++) {
          client.InternAtom(false, `DESKPILOT_TEST_JUNK_${i}_${Date.now()}`, () => {
            if (--left === 0) client.close(() => resolve());
          });
        }
      });
      client.on('error', reject);
    });
  }
});
