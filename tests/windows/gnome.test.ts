import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WindowBackend } from '../../src/engine/ports';
import { createGnomeWindowBackend } from '../../src/platform/windows/gnome/gnome-backend';
import { CLI, runCli } from '../support/cli';
import { launch, stopProc } from '../support/desktop';
import { frameOf, gnomeUnavailableReason, startGnome, type GnomeSession } from '../support/gnome';
import { POLL, waitFor } from '../support/wait-for';

// Window commands on a real GNOME Shell 43 (headless Wayland, two 1920x1080 virtual monitors:
// Meta-0 at 0,0 under the top bar, so its work area starts at y=32; Meta-1 at 1920,0) with
// DeskPilot's extension enabled before the shell started, and foot terminals as Wayland clients.
// Every frame is read back through GLib's own `gdbus call` to the extension's List.

const reason = gnomeUnavailableReason();
const required = process.env.DESKPILOT_REQUIRE_DESKTOP === '1';
const describeGnome = reason === null || required ? describe : describe.skip;
if (reason !== null && !required) console.warn(`[gnome] skipping the GNOME Shell window tests: ${reason}`);

const INSTALL = 'install the extension: deskpilot gnome-extension install';

describeGnome('GNOME Shell (headless Wayland, two monitors, foot) through DeskPilot\'s extension', () => {
  if (reason !== null) {
    it('needs headless GNOME Shell and foot (DESKPILOT_REQUIRE_DESKTOP=1)', () => {
      throw new Error(reason);
    });
    return;
  }
  let gnome: GnomeSession;
  let backend: WindowBackend;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const ids = { foot: '', scratch: '', logs: '' };
  /** The desk's name for the foot window (foot.desktop); the others go by their app id. */
  const FOOT = 'Foot';

  const listed = async (id: string) => {
    const w = (await gnome.windows()).find((x) => x.id === id);
    if (!w) throw new Error(`window ${id} is not in the extension's List`);
    return w;
  };
  const frame = async (id: string) => frameOf(await listed(id));
  const exec = async (json: unknown) => {
    const r = await runCli(['exec', JSON.stringify(json)], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.json;
  };

  beforeAll(async () => {
    gnome = await startGnome();
    backend = await createGnomeWindowBackend({ env: gnome.env });
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-gnome-cfg-'));
    // No Chrome here: a closed loopback port, so the tab source fails at once and says so.
    env = { ...gnome.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: 'http://127.0.0.1:9', DESKPILOT_LLM_MODEL: '', DESKPILOT_NO_SERVICE: '1' };
    ids.logs = await gnome.foot({ appId: 'logs', title: 'logs' });
    ids.scratch = await gnome.foot({ appId: 'scratch', title: 'scratch' });
    ids.foot = await gnome.foot({ appId: 'foot', title: 'main' });
  });

  afterAll(async () => {
    await backend?.dispose();
    await gnome?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Each case starts with every window shown, neither full screen nor maximised.
  beforeEach(async () => {
    for (const id of Object.values(ids)) await backend.restore(id);
  });

  describe('the backend', () => {
    it('lists the foot windows with the shell\'s ids, app ids, pids, and the monitors by connector with work areas', async () => {
      const windows = await backend.listWindows();
      expect(windows.map((w) => w.id).sort()).toEqual(Object.values(ids).sort());
      const main = windows.find((w) => w.id === ids.foot)!;
      expect(main).toMatchObject({ appKeys: ['foot'], title: 'main', minimized: false, fullscreen: false });
      expect(main.pid).toBeGreaterThan(0);
      // The last one opened is on top (mutter gives a new Wayland window without an activation token no focus).
      expect(windows[0]!.id).toBe(ids.foot);
      await backend.focus(ids.foot);
      expect((await backend.focused())?.id).toBe(ids.foot);
      expect(await backend.listMonitors()).toEqual([
        { id: 'Meta-0', name: 'Meta-0', bounds: [0, 0, 1920, 1080], workArea: [0, 32, 1920, 1080], primary: true, scale: 1 },
        { id: 'Meta-1', name: 'Meta-1', bounds: [1920, 0, 3840, 1080], workArea: [1920, 0, 3840, 1080], primary: false, scale: 1 },
      ]);
    });

    it('moves a window exactly, on either monitor, and the shell lists it there', async () => {
      expect(await backend.setFrameBounds(ids.scratch, [100, 100, 900, 700])).toEqual([100, 100, 900, 700]);
      expect(await frame(ids.scratch)).toEqual([100, 100, 900, 700]);
      expect(await backend.setFrameBounds(ids.scratch, [2000, 50, 3000, 1000])).toEqual([2000, 50, 3000, 1000]);
      expect(await frame(ids.scratch)).toEqual([2000, 50, 3000, 1000]);
    });

    it('focus raises and focuses; raise puts it on top of the stacking order', async () => {
      await backend.focus(ids.logs);
      expect(await listed(ids.logs)).toMatchObject({ focused: true, stacking: 0 });
      await backend.raise(ids.scratch);
      expect((await listed(ids.scratch)).stacking).toBe(0);
    });

    it('minimises and restores', async () => {
      await backend.minimize(ids.logs);
      expect((await listed(ids.logs)).minimized).toBe(true);
      await backend.restore(ids.logs);
      expect((await listed(ids.logs)).minimized).toBe(false);
    });

    it('full screen covers its monitor; leaving it brings the frame back', async () => {
      await backend.setFrameBounds(ids.logs, [2100, 100, 2900, 700]);
      await backend.setFullscreen(ids.logs, true);
      expect(await listed(ids.logs)).toMatchObject({ fullscreen: true, frame: { x: 1920, y: 0, width: 1920, height: 1080 } });
      await backend.setFullscreen(ids.logs, false);
      expect((await listed(ids.logs)).fullscreen).toBe(false);
      expect(await frame(ids.logs)).toEqual([2100, 100, 2900, 700]);
      // restore (what a placement does first) leaves it too, and waits for the frame to come back.
      await backend.setFullscreen(ids.logs, true);
      await backend.restore(ids.logs);
      expect((await listed(ids.logs)).fullscreen).toBe(false);
      expect(await frame(ids.logs)).toEqual([2100, 100, 2900, 700]);
    });

    it('an id the shell does not know is a gone window; a bad size is refused by the extension with the field named', async () => {
      await expect(backend.focus('999999')).rejects.toMatchObject({ code: 'window_gone' });
      await expect(backend.setFrameBounds('not-an-id', [0, 0, 10, 10])).rejects.toMatchObject({ code: 'window_gone' });
      // gdbus straight to the extension: it checks what it is given, whoever calls.
      await expect(gnome.call('MoveResize', ids.logs, '0', '0', '0', '100')).rejects.toThrow(/org\.deskpilot\.Windows1\.Error\.InvalidArgument: width: expected an integer from 1/);
      await expect(gnome.call('SetFullscreen', 'abc', 'true')).rejects.toThrow(/InvalidArgument: id: expected a window id/);
    });

    it('closes politely: the app gets the close request and exits, its window leaves the list', async () => {
      const extra = await gnome.foot({ appId: 'closeme', title: 'closeme' });
      const pid = (await listed(extra)).pid!;
      await backend.close(extra);
      await waitFor('the closed window to leave the list', async () => !(await gnome.windows()).some((w) => w.id === extra));
      await waitFor('foot to exit', async () => !(await backend.processAlive(pid)));
    });
  });

  describe('through the command service (the real CLI)', () => {
    it('"foot left half" (words) lands exactly on the left half of the work area, on top and focused', async () => {
      await backend.setFrameBounds(ids.foot, [300, 300, 1000, 800]);
      const r = await runCli(['run', '--planner', 'local', '--yes', 'foot left half'], { env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(await listed(ids.foot)).toMatchObject({ frame: { x: 0, y: 32, width: 960, height: 1048 }, focused: true, stacking: 0 });
    });

    it('swap: two windows trade frames exactly', async () => {
      await exec([
        { type: 'place_app', app_name: FOOT, bounds: [100, 100, 900, 700] },
        { type: 'place_app', app_name: 'scratch', bounds: [2000, 200, 3000, 900] },
      ]);
      await exec({ type: 'swap_apps', app_names: [FOOT, 'scratch'] });
      expect(await frame(ids.foot)).toEqual([2000, 200, 3000, 900]);
      expect(await frame(ids.scratch)).toEqual([100, 100, 900, 700]);
    });

    it('tile: three windows become three exact columns of the right monitor', async () => {
      await exec({ type: 'tile_apps', app_names: [FOOT, 'scratch', 'logs'], monitor: 'right' });
      expect(await frame(ids.foot)).toEqual([1920, 0, 2560, 1080]);
      expect(await frame(ids.scratch)).toEqual([2560, 0, 3200, 1080]);
      expect(await frame(ids.logs)).toEqual([3200, 0, 3840, 1080]);
    });

    it('minimise and full screen by command; undo leaves full screen', async () => {
      await exec({ type: 'set_app_state', app_name: 'logs', state: 'minimized' });
      expect((await listed(ids.logs)).minimized).toBe(true);
      await exec({ type: 'set_app_state', app_name: 'logs', state: 'normal' });
      expect((await listed(ids.logs)).minimized).toBe(false);
      await exec({ type: 'set_app_state', app_name: 'scratch', state: 'fullscreen' });
      expect((await listed(ids.scratch)).fullscreen).toBe(true);
      expect((await runCli(['undo'], { env })).code).toBe(0);
      await expect.poll(async () => (await listed(ids.scratch)).fullscreen, POLL).toBe(false);
    });

    it('through a warm `deskpilot service` (the thin client relays the call): its status names GNOME Shell, and a placement lands exactly', async () => {
      const served = { ...env, DESKPILOT_NO_SERVICE: '' };
      const service = await launch('deskpilot service', process.execPath, [CLI, 'service'], served);
      try {
        const status = await waitFor('the service to answer', async () => {
          const r = await runCli(['service', 'status'], { env: served });
          return r.code === 0 ? r.stdout : undefined;
        });
        expect(status).toMatch(/windows: GNOME Shell 43\.\d+ \(Wayland\) through the DeskPilot extension/);
        const r = await runCli(['exec', JSON.stringify({ type: 'place_app', app_name: 'scratch', monitor: 'right', layout: 'right_half' })], { env: served });
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(await frame(ids.scratch)).toEqual([2880, 0, 3840, 1080]);
        expect((await runCli(['service', 'status'], { env: served })).stdout).toMatch(/served: .*\bexec 1\b/);
      } finally {
        await stopProc(service);
      }
    });

    it('multi-level undo: three batches undone in one go, every window back where it was', async () => {
      await backend.setFrameBounds(ids.foot, [50, 100, 850, 700]);
      await backend.setFrameBounds(ids.scratch, [900, 150, 1700, 750]);
      await backend.setFrameBounds(ids.logs, [2000, 100, 2800, 700]);
      const before = { foot: await frame(ids.foot), scratch: await frame(ids.scratch), logs: await frame(ids.logs) };
      await exec({ type: 'place_app', app_name: FOOT, layout: 'left_half' });
      await exec({ type: 'place_app', app_name: 'scratch', monitor: 'right', layout: 'maximize' });
      await exec({ type: 'place_app', app_name: 'logs', bounds: [300, 300, 1000, 800] });
      expect(await frame(ids.scratch)).toEqual([1920, 0, 3840, 1080]);
      expect(await frame(ids.logs)).toEqual([300, 300, 1000, 800]);
      const u = await runCli(['undo', '3'], { env });
      expect(u.stderr).toBe('');
      expect(u.code).toBe(0);
      for (const [k, id] of Object.entries(ids)) expect(await frame(id)).toEqual(before[k as keyof typeof before]);
    });
  });
});

describeGnome('GNOME Shell without DeskPilot\'s extension', () => {
  if (reason !== null) return;
  let gnome: GnomeSession;
  let dir: string;

  beforeAll(async () => {
    gnome = await startGnome({ extension: false });
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-gnome-cfg-'));
  });

  afterAll(async () => {
    await gnome?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every window call fails as unavailable with the install command — nothing is silently skipped', async () => {
    const backend = await createGnomeWindowBackend({ env: gnome.env });
    try {
      for (const call of [() => backend.listWindows(), () => backend.listMonitors(), () => backend.setFrameBounds('1', [0, 0, 100, 100])]) {
        const err = await call().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toMatchObject({ code: 'unavailable' });
        expect((err as Error).message).toContain(INSTALL);
      }
    } finally {
      await backend.dispose();
    }
  });

  it('`deskpilot windows` says the extension is missing and how to install it', async () => {
    const env = { ...gnome.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: 'http://127.0.0.1:9', DESKPILOT_LLM_MODEL: '', DESKPILOT_NO_SERVICE: '1' };
    const r = await runCli(['windows'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(INSTALL);
  });
});
