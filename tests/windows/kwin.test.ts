import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WindowBackend } from '../../src/engine/ports';
import { createKwinWindowBackend } from '../../src/platform/windows/kwin';
import { runCli } from '../support/cli';
import { describeSession } from '../support/describe-session';
import { kwinSessionUnavailableReason, startKwinSession, type KwinSession } from '../support/kwin';
import { waitFor } from '../support/wait-for';

// The KWin backend on a real KWin 5.27 (kwin_wayland --virtual, two 1920×1080 outputs side by
// side, a private session bus) with real Wayland clients: two GTK 3 windows and weston-terminal.
// Everything is read back without DeskPilot's code: KWin's own org.kde.KWin.getWindowInfo and a
// script loaded with gdbus that print()s what KWin holds.

type Rect = [number, number, number, number];

describeSession('window commands on a real KWin (Wayland, two virtual outputs)', kwinSessionUnavailableReason(), 'needs kwin_wayland, dbus-daemon, gdbus, weston-terminal and GTK 3', () => {
  let kwin: KwinSession;
  let backend: WindowBackend;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const ids = { kilo: '', lima: '', terminal: '' };
  const pids = { kilo: 0, lima: 0, terminal: 0 };

  const rect = async (id: string): Promise<Rect> => (await kwin.windowInfo(id)).rect;
  const observed = async (id: string) => (await kwin.observe()).find((w) => w.id === id);
  const exec = async (json: unknown) => {
    const r = await runCli(['exec', JSON.stringify(json)], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.json;
  };
  const run = (words: string) => runCli(['run', '--planner', 'local', '--yes', words], { env });

  beforeAll(async () => {
    kwin = await startKwinSession();
    ({ id: ids.kilo, pid: pids.kilo } = await kwin.startGtkWindow('Kilo notes', 'kilo'));
    ({ id: ids.lima, pid: pids.lima } = await kwin.startGtkWindow('Lima notes', 'lima'));
    ({ id: ids.terminal, pid: pids.terminal } = await kwin.startWestonTerminal());
    backend = await createKwinWindowBackend({ env: kwin.env });
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-kwin-cfg-'));
    // Desktop entries give the apps the names people use (weston ships none for its terminal).
    const apps = path.join(dir, 'data', 'applications');
    mkdirSync(apps, { recursive: true });
    const entry = (name: string, exec: string, wmClass: string) =>
      `[Desktop Entry]\nType=Application\nName=${name}\nExec=${exec}\nStartupWMClass=${wmClass}\n`;
    writeFileSync(path.join(apps, 'kilo.desktop'), entry('Kilo', 'true', 'kilo'));
    writeFileSync(path.join(apps, 'lima.desktop'), entry('Lima', 'true', 'lima'));
    writeFileSync(path.join(apps, 'weston-terminal.desktop'), entry('Weston Terminal', 'weston-terminal', 'weston-terminal'));
    // No Chrome here: a closed loopback port, so the tab source fails at once and says so.
    env = {
      ...kwin.env,
      DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_DATA_DIRS: '/usr/share',
      DESKPILOT_CHROME_URL: 'http://127.0.0.1:9',
      DESKPILOT_LLM_MODEL: '',
      DESKPILOT_NO_SERVICE: '1',
    };
  });

  afterAll(async () => {
    await backend?.dispose();
    await kwin?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('the backend', () => {
    it('lists every window with KWin\'s id, title, app keys, pid and frame, and the outputs as named monitors', async () => {
      const windows = await backend.listWindows();
      expect(windows.map((w) => w.id).sort()).toEqual(Object.values(ids).sort());
      const kilo = windows.find((w) => w.id === ids.kilo)!;
      expect(kilo).toMatchObject({ title: 'Kilo notes', pid: pids.kilo, minimized: false, fullscreen: false });
      expect(kilo.appKeys).toContain('kilo');
      expect(windows.find((w) => w.id === ids.terminal)!.appKeys).toContain('weston-terminal');
      for (const w of windows) expect(w.bounds).toEqual(await rect(w.id));
      // Top of KWin's stacking order first.
      const stacking = new Map((await kwin.observe()).map((w) => [w.id, w.stacking]));
      expect(windows.map((w) => stacking.get(w.id))).toEqual([...stacking.values()].sort((a, b) => b - a));
      expect(await backend.listMonitors()).toEqual([
        { id: 'Virtual-0', name: 'Virtual-0', bounds: [0, 0, 1920, 1080], workArea: [0, 0, 1920, 1080], primary: true, scale: 1 },
        { id: 'Virtual-1', name: 'Virtual-1', bounds: [1920, 0, 3840, 1080], workArea: [1920, 0, 3840, 1080], primary: false, scale: 1 },
      ]);
    });

    it('moves a window to an exact rectangle, as a second scripted read and KWin\'s getWindowInfo both see it', async () => {
      const target: Rect = [2000, 40, 2900, 740];
      expect(await backend.setFrameBounds(ids.kilo, target)).toEqual(target);
      expect((await observed(ids.kilo))!.rect).toEqual(target);
      expect(await rect(ids.kilo)).toEqual(target);
    });

    it('a terminal rounds to its character cells: the frame returned is the one KWin holds', async () => {
      const got = await backend.setFrameBounds(ids.terminal, [0, 0, 960, 1080]);
      expect(got[0]).toBe(0);
      expect(got[1]).toBe(0);
      expect(got[2]).toBeLessThanOrEqual(960);
      expect(got).toEqual(await rect(ids.terminal));
    });

    it('minimises and restores', async () => {
      await backend.minimize(ids.lima);
      expect((await kwin.windowInfo(ids.lima)).minimized).toBe(true);
      await backend.restore(ids.lima);
      expect((await kwin.windowInfo(ids.lima)).minimized).toBe(false);
    });

    it('enters and leaves true full screen: the whole output, then the frame it had', async () => {
      const before = await backend.setFrameBounds(ids.lima, [100, 100, 700, 500]);
      await backend.setFullscreen(ids.lima, true);
      expect(await kwin.windowInfo(ids.lima)).toMatchObject({ fullscreen: true, rect: [0, 0, 1920, 1080] });
      await backend.setFullscreen(ids.lima, false);
      expect(await kwin.windowInfo(ids.lima)).toMatchObject({ fullscreen: false, rect: before });
    });

    it('restore out of full screen resolves once the window is back at its frame', async () => {
      const before = await backend.setFrameBounds(ids.lima, [150, 120, 750, 520]);
      await backend.setFullscreen(ids.lima, true);
      await backend.restore(ids.lima);
      expect(await kwin.windowInfo(ids.lima)).toMatchObject({ fullscreen: false, rect: before });
    });

    it('focus raises and activates: KWin\'s active window, top of its stacking order', async () => {
      for (const id of [ids.kilo, ids.terminal]) {
        await backend.focus(id);
        const windows = await kwin.observe();
        const top = windows.reduce((a, b) => (b.stacking > a.stacking ? b : a));
        expect(windows.find((w) => w.active)?.id).toBe(id);
        expect(top.id).toBe(id);
        expect((await backend.focused())?.id).toBe(id);
      }
    });

    it('an id KWin does not have, or could not have, is window_gone', async () => {
      await expect(backend.setFrameBounds('{00000000-0000-4000-8000-000000000000}', [0, 0, 10, 10])).rejects.toMatchObject({ code: 'window_gone' });
      await expect(backend.close('x"); workspace.activeClient.closeWindow(); ("')).rejects.toMatchObject({ code: 'window_gone' });
      expect((await backend.listWindows()).length).toBe(3);
    });

    it('closes a window politely: the client exits on its own', async () => {
      const extra = await kwin.startGtkWindow('Mike notes', 'mike');
      await backend.close(extra.id);
      await waitFor('the closed window to leave KWin', async () => !(await kwin.observe()).some((w) => w.id === extra.id));
      await waitFor('its process to exit', async () => !(await backend.processAlive(extra.pid)));
    });
  });

  describe('through the real command service (CLI)', () => {
    it('"kilo left half" (words) lands exactly on the left half of its output, raised and focused; undo puts it back', async () => {
      const start = await backend.setFrameBounds(ids.kilo, [2100, 100, 2700, 600]);
      const r = await run('kilo left half');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(await rect(ids.kilo)).toEqual([1920, 0, 2880, 1080]);
      expect((await observed(ids.kilo))!.active).toBe(true);
      const undo = await runCli(['undo'], { env });
      expect(undo.code).toBe(0);
      expect(await rect(ids.kilo)).toEqual(start);
    });

    it('windows --json lists KWin\'s ids with the app names, and the outputs with roles', async () => {
      const r = await runCli(['windows', '--json'], { env });
      expect(r.code).toBe(0);
      const rows = r.json.windows as Array<{ id: string; app: string; title: string }>;
      expect(rows.map((w) => w.id).sort()).toEqual(Object.values(ids).sort());
      expect(rows.find((w) => w.id === ids.terminal)).toMatchObject({ app: 'Weston Terminal' });
      const monitors = r.json.monitors as Array<{ name: string; roles: string[] }>;
      expect(monitors.map((m) => [m.name, m.roles])).toEqual([
        ['Virtual-0', ['main', 'left']],
        ['Virtual-1', ['right']],
      ]);
    });

    it('swap: each window takes the other\'s frame', async () => {
      const a = await backend.setFrameBounds(ids.kilo, [200, 100, 900, 600]);
      const b = await backend.setFrameBounds(ids.lima, [2200, 200, 3000, 900]);
      const r = await exec({ type: 'swap_apps', app_names: ['Kilo', 'Lima'] });
      expect(r.plan[0].summary).toBe('swap Kilo and Lima');
      expect(await rect(ids.kilo)).toEqual(b);
      expect(await rect(ids.lima)).toEqual(a);
    });

    it('tile: equal columns of the right output\'s work area in the order named; undo puts every window back', async () => {
      const before = { kilo: await rect(ids.kilo), lima: await rect(ids.lima) };
      const r = await exec({ type: 'tile_apps', app_names: ['Lima', 'Kilo'], monitor: 'right' });
      expect(r.results[0].message).toMatch(/^Tiled 2 apps side by side on Virtual-1/);
      expect(await rect(ids.lima)).toEqual([1920, 0, 2880, 1080]);
      expect(await rect(ids.kilo)).toEqual([2880, 0, 3840, 1080]);
      const undo = await runCli(['undo'], { env });
      expect(undo.code).toBe(0);
      expect({ kilo: await rect(ids.kilo), lima: await rect(ids.lima) }).toEqual(before);
    });

    it('minimise, restore and full screen by name; undo leaves full screen where it was', async () => {
      const frame = await backend.setFrameBounds(ids.lima, [300, 200, 900, 700]);
      await exec({ type: 'set_app_state', app_name: 'Lima', state: 'minimized' });
      expect((await kwin.windowInfo(ids.lima)).minimized).toBe(true);
      await exec({ type: 'set_app_state', app_name: 'Lima', state: 'normal' });
      expect(await kwin.windowInfo(ids.lima)).toMatchObject({ minimized: false, rect: frame });
      const r = await exec({ type: 'set_app_state', app_name: 'Lima', state: 'fullscreen' });
      expect(r.results[0].message).toBe('Made Lima full screen');
      expect(await kwin.windowInfo(ids.lima)).toMatchObject({ fullscreen: true, rect: [0, 0, 1920, 1080] });
      await runCli(['undo'], { env });
      expect(await kwin.windowInfo(ids.lima)).toMatchObject({ fullscreen: false, rect: frame });
    });
  });
});
