import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { waitFor } from '../support/wait-for';
import { activeWindow, frameOf, isHidden, processRunning, wmWindows, type Frame } from '../support/x-observe';

// Windows, apps, presets and undo end to end: the real CLI against a real X server with two
// monitors and openbox; every effect read back with xwininfo/xprop/wmctrl and /proc.

interface Snap {
  monitors: Array<{ name: string; roles: string[]; bounds: Frame; work_area: Frame }>;
  running_apps: Array<{ name: string; pid: number | null; windows: Array<{ id: string; title: string; bounds: Frame; monitor: string }> }>;
  installed_apps: Array<{ name: string }>;
}

/** xterm sizes in 6x13 character cells: it may land up to one cell smaller than asked. */
function expectFrameNear(got: Frame, want: readonly number[]) {
  expect(got[0]).toBe(want[0]);
  expect(got[1]).toBe(want[1]);
  expect(want[2]! - got[2]).toBeGreaterThanOrEqual(0);
  expect(want[2]! - got[2]).toBeLessThan(6);
  expect(want[3]! - got[3]).toBeGreaterThanOrEqual(0);
  expect(want[3]! - got[3]).toBeLessThan(13);
}

describeDesktop('windows, apps, presets and undo on a real X11 desktop', () => {
  let desk: Desktop;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let xtermId: string;

  const cli = (...args: string[]) => runCli(args, { env });
  const exec = (json: unknown, ...flags: string[]) => runCli(['exec', ...flags, JSON.stringify(json)], { env });
  /** A set-up step: fails here, with its own message, rather than later under a confusing one. */
  const setUp = async (json: unknown) => {
    const r = await exec(json);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r;
  };
  const snap = async (): Promise<Snap> => (await cli('context', '--json', '--no-summaries')).json;
  const appOfPid = async (pid: number) => (await snap()).running_apps.find((a) => a.pid === pid)!;

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm', 'xclock'], chrome: true });
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-windows-'));
    mkdirSync(path.join(dir, 'data', 'applications'), { recursive: true });
    env = {
      ...desk.env,
      DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
      DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_DATA_DIRS: '/usr/share',
    };
    xtermId = (await appOfPid(desk.pids.apps.xterm!)).windows[0]!.id;
  });

  afterAll(async () => {
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the snapshot shows both monitors with roles, and apps named from the catalog with their real frames', async () => {
    const s = await snap();
    expect(s.monitors.map((m) => [m.name, m.roles, m.bounds])).toEqual([
      ['LEFT', ['main', 'left'], [0, 0, 1920, 1080]],
      ['RIGHT', ['right'], [1920, 0, 3840, 1080]],
    ]);
    const xterm = s.running_apps.find((a) => a.pid === desk.pids.apps.xterm)!;
    expect(xterm.name).toBe('XTerm'); // debian-xterm.desktop: StartupWMClass=XTerm, Name=XTerm
    expect(xterm.windows[0]!.bounds).toEqual(frameOf(env, xterm.windows[0]!.id));
    expect(s.installed_apps.map((a) => a.name)).toContain('XTerm');
  });

  it('place_app with exact bounds lands the outer frame there', async () => {
    const bounds = [2020, 100, 2820, 700];
    const r = await exec({ type: 'place_app', app_name: 'XTerm', bounds });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.results[0].message).toMatch(/^XTerm → 800x600 at 2020,100/);
    expect(r.json.results[0].data.bounds).toEqual([2020, 100, expect.any(Number), expect.any(Number)]);
    expectFrameNear(frameOf(env, xtermId), bounds);
  });

  it('place_app to a monitor keeps the relative position and size', async () => {
    const before = frameOf(env, xtermId);
    const r = await exec({ type: 'place_app', app_name: 'xterm', monitor: 'left' });
    expect(r.code).toBe(0);
    expect(r.json.results[0].message).toBe('XTerm → the left monitor');
    const after = frameOf(env, xtermId);
    expect(after[0]).toBe(before[0] - 1920);
    expect(after[1]).toBe(before[1]);
    expect(after[2] - after[0]).toBeGreaterThan(before[2] - before[0] - 6);
  });

  it("moves Chromium's window across monitors and back", async () => {
    const chromium = await appOfPid(desk.chrome!.pid);
    const id = chromium.windows[0]!.id;
    await setUp({ type: 'place_app', app_name: chromium.name, monitor: 'right' });
    let f = frameOf(env, id);
    expect(f[0]).toBeGreaterThanOrEqual(1920);
    expect(f[2]).toBeLessThanOrEqual(3840);
    await setUp({ type: 'place_app', app_name: chromium.name, bounds: [100, 50, 1300, 850] });
    f = frameOf(env, id);
    expect(f).toEqual([100, 50, 1300, 850]);
  });

  it('focus_app brings the window to the front, restoring it when minimised', async () => {
    execFileSync('xdotool', ['windowminimize', '--sync', String(parseInt(xtermId, 16))], { env });
    // --sync waits for the unmap; openbox sets _NET_WM_STATE_HIDDEN on its own time after that.
    await waitFor('the xterm to be minimised', async () => isHidden(env, xtermId));
    const r = await exec({ type: 'focus_app', app_name: 'XTerm' });
    expect(r.code).toBe(0);
    expect(r.json.results[0].message).toMatch(/^Brought XTerm to the front/);
    expect(isHidden(env, xtermId)).toBe(false);
    expect(activeWindow(env)).toBe(parseInt(xtermId, 16));
  });

  it('undo puts a placed window back, several steps at once, and says when there is nothing left to undo', async () => {
    await setUp({ type: 'place_app', app_name: 'XTerm', bounds: [300, 300, 900, 800] });
    const placed = frameOf(env, xtermId);
    await setUp({ type: 'place_app', app_name: 'XTerm', bounds: [2400, 400, 3000, 900] });
    const r = await cli('undo', '--verbose');
    expect(r.code).toBe(0);
    // In words; with --verbose the numbers follow.
    expect(r.stdout).toMatch(/^Undid "move XTerm to 600x500 at 2400,400": XTerm back where it was[^\n]*\n {2}XTerm at 300,300 \d+x\d+\n$/);
    expect(r.stderr).toBe('');
    expect(frameOf(env, xtermId)).toEqual(placed);

    await setUp({ type: 'place_app', app_name: 'XTerm', bounds: [2000, 100, 2600, 600] });
    await setUp({ type: 'place_app', app_name: 'XTerm', bounds: [2100, 200, 2700, 700] });
    const two = await cli('undo', '2', '--json');
    expect(two.code).toBe(0);
    expect(two.json).toMatchObject({ status: 'done', results: [{ type: 'undo', ok: true, data: { undone: 2 } }] });
    expect(frameOf(env, xtermId)).toEqual(placed);

    rmSync(path.join(dir, 'config', 'undo.json'), { force: true });
    const none = await cli('undo');
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('Nothing to undo\n');
  });

  it('undo must be alone in its batch, and bounds must lie on the monitor named with them', async () => {
    const mixed = await exec([{ type: 'undo' }, { type: 'place_app', app_name: 'XTerm', monitor: 'left' }]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/^commands\[0\]: undo must be the only command in its batch/);
    const off = await exec({ type: 'place_app', app_name: 'XTerm', monitor: 'left', bounds: [2000, 100, 2600, 500] });
    expect(off.code).toBe(2);
    expect(off.stderr).toBe('commands[0].bounds: [2000, 100, 2600, 500] is not on the left monitor (LEFT is [0, 0, 1920, 1080])\n');
  });

  it('one command that does not resolve stops the whole batch: the window does not move', async () => {
    const before = frameOf(env, xtermId);
    const r = await exec([{ type: 'place_app', app_name: 'XTerm', monitor: 'right' }, { type: 'close_tab', tab_indices: [99] }]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^commands\[1\]\.tab_indices\[0\]: tab 99 does not exist/);
    expect(frameOf(env, xtermId)).toEqual(before);
  });

  it('presets: save, move everything, apply → the same layout; undo after apply moves it back', async () => {
    await setUp({ type: 'place_app', app_name: 'XTerm', bounds: [1920, 0, 2880, 1080] });
    const saved = frameOf(env, xtermId);
    const save = await cli('presets', 'save', 'code space', '--apps', 'XTerm');
    expect(save.code).toBe(0);
    // xterm snaps to character cells, so it fills a little less than the half it was given.
    expect(save.stdout).toMatch(/^saved preset "code space": XTerm on right at 0% 0% (49|50)% (99|100)%\n$/);
    expect((await cli('presets', 'list')).stdout).toMatch(/^code space: XTerm on right/);

    await setUp({ type: 'place_app', app_name: 'XTerm', bounds: [200, 200, 800, 600] });
    const moved = frameOf(env, xtermId);
    const apply = await exec({ type: 'activate_preset', preset_name: 'Code Space' });
    expect(apply.code).toBe(0);
    expect(apply.json.results[0].message).toMatch(/^Applied preset "code space": ✓ placed XTerm on RIGHT/);
    expect(frameOf(env, xtermId)).toEqual(saved);

    const undo = await cli('undo');
    expect(undo.code).toBe(0);
    expect(frameOf(env, xtermId)).toEqual(moved);

    // The same preset by name from the CLI: one sentence for people, the full report with --json.
    const applied = await cli('presets', 'apply', 'code space');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^Applied preset "code space": ✓ placed XTerm on RIGHT[^\n]*\n$/);
    expect(applied.stderr).toBe('');
    expect(frameOf(env, xtermId)).toEqual(saved);
    const again = await cli('presets', 'apply', 'code space', '--json');
    expect(again.json).toMatchObject({ status: 'done', results: [{ type: 'activate_preset', ok: true }] });
    expect(again.stderr).toBe('');

    const show = await cli('presets', 'show', 'CODE SPACE');
    expect(show.json).toMatchObject({ name: 'code space', placements: [{ app: 'XTerm', monitor: 'right', launch: true }], urls: [] });
    expect((await cli('presets', 'save', 'x'.repeat(300))).code).toBe(2);
    expect((await cli('presets', 'save', 'ghosts', '--apps', 'Nope')).stderr).toBe('deskpilot: not running, so their layout cannot be saved: Nope\n');
    expect((await cli('presets', 'delete', 'code space')).code).toBe(0);
    expect((await cli('presets', 'delete', 'code space')).code).toBe(2);
  });

  it('a bad preset in presets.json is skipped with the bad entry named, and nothing moves', async () => {
    const file = path.join(dir, 'config', 'presets.json');
    writeFileSync(file, JSON.stringify({ version: 1, presets: [{ name: 'twice', placements: [
      { app: 'XTerm', monitor: 'left', rect: [0, 0, 0.5, 1] }, { app: 'xterm', monitor: 'right', rect: [0, 0, 0.5, 1] },
    ] }, { name: 'fine', placements: [], urls: [] }] }));
    try {
      const before = frameOf(env, xtermId);
      const r = await exec({ type: 'activate_preset', preset_name: 'twice' });
      // The bad record is not a preset DeskPilot can apply: the batch is invalid (exit 2), and why is said.
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('presets[0] is skipped (presets[0].placements[1].app: "xterm" is placed twice; a preset places each app once)');
      const list = await cli('presets', 'list');
      expect(list.code).toBe(0);
      expect(list.stdout).toContain('fine');
      expect(list.stdout).not.toContain('twice');
      expect(frameOf(env, xtermId)).toEqual(before);
    } finally {
      rmSync(file);
    }
  });

  it('close_app closes gracefully and the process exits; undo says it cannot bring it back', async () => {
    const clock = await appOfPid(desk.pids.apps.xclock!);
    const r = await exec({ type: 'close_app', app_name: clock.name });
    expect(r.code).toBe(0);
    expect(r.json.results[0].message).toBe(`Closed ${clock.name} (1 window); its process has exited`);
    expect(processRunning(desk.pids.apps.xclock!)).toBe(false);
    expect(wmWindows(env).some((w) => w.pid === desk.pids.apps.xclock)).toBe(false);
    const undo = await cli('undo', '--json');
    expect(undo.json.results[0].message).toContain(`cannot undo: closed ${clock.name}`);
  });

  it('focus_app launches an installed app that is not running, from a .desktop file', async () => {
    writeFileSync(
      path.join(dir, 'data', 'applications', 'test-clock.desktop'),
      '[Desktop Entry]\nType=Application\nName=Test Clock\nExec=xclock -title "Test Clock" %u\n',
    );
    const r = await exec({ type: 'focus_app', app_name: 'test clock' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.results[0].message).toBe('Started Test Clock and brought it to the front');
    const pid = r.json.results[0].data.pid as number;
    expect(wmWindows(env).find((w) => w.pid === pid)?.title).toBe('Test Clock');
    process.kill(pid);
  });

  it.each([
    ['an unknown app, naming the closest ones', { type: 'focus_app', app_name: 'Xtrem' }, /^commands\[0\]\.app_name: no running or installed app is named "Xtrem"; closest: "XTerm"/],
    ['bounds entirely off-screen', { type: 'place_app', app_name: 'XTerm', bounds: [5000, 0, 5600, 400] }, /^commands\[0\]\.bounds: \[5000, 0, 5600, 400\] lies entirely outside every monitor/],
    ['zero-size bounds', { type: 'place_app', app_name: 'XTerm', bounds: [100, 100, 100, 100] }, /^commands\[0\]\.bounds: left must be less than right/],
  ])('refuses %s with exit 2 and moves nothing', async (_, cmd, message) => {
    const before = frameOf(env, xtermId);
    const r = await exec(cmd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(frameOf(env, xtermId)).toEqual(before);
  });

  it('a window that vanished between snapshot and execution is reported and no other window moves', async () => {
    // Its own WM_CLASS, so the catalog does not call it XTerm.
    const doomed = spawn('xterm', ['-title', 'Doomed', '-name', 'doomed', '-class', 'Doomedterm'], { env, detached: true, stdio: 'ignore' });
    const name = 'Doomedterm';
    const s = await waitFor(`${name} in the snapshot`, async () => {
      const now = await snap();
      return now.running_apps.some((a) => a.name === name) && now;
    });
    const file = path.join(dir, 'snap.json');
    writeFileSync(file, JSON.stringify(s));
    try {
      const doomedId = s.running_apps.find((a) => a.name === name)!.windows[0]!.id;
      const exited = new Promise<void>((resolve) => doomed.on('exit', () => resolve()));
      execFileSync('wmctrl', ['-ic', doomedId], { env });
      await exited;
      const before = frameOf(env, xtermId);
      const r = await exec({ type: 'place_app', app_name: name, monitor: 'right' }, '--context', file);
      expect(r.code).toBe(1);
      expect(r.json.results[0].message).toBe(`${name}'s window closed after the snapshot; nothing was changed`);
      expect(frameOf(env, xtermId)).toEqual(before);
    } finally {
      if (doomed.exitCode === null) doomed.kill();
    }
  });
});
