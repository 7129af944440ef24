import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { findCon, frameOfCon, startSway, swayUnavailableReason, type SwaySession, type TreeNode } from '../support/sway';

// Every window command through the real CLI on a real headless sway 1.7 (two 1920x1080 outputs
// side by side, a bar on top of each: work areas start at y=23) with three foot windows, read
// back with sway's own tool (`swaymsg -t get_tree`). Exact frames: sway sizes the container.

const reason = swayUnavailableReason();
const describeSway = reason === null ? describe : process.env.DESKPILOT_REQUIRE_DESKTOP === '1' ? describe : describe.skip;
if (reason !== null && process.env.DESKPILOT_REQUIRE_DESKTOP !== '1') console.warn(`[sway] skipping the sway window tests: ${reason}`);

describeSway('window commands on a real sway (headless, two outputs, foot)', () => {
  if (reason !== null) {
    it('needs headless sway and foot (DESKPILOT_REQUIRE_DESKTOP=1)', () => {
      throw new Error(reason);
    });
    return;
  }
  let sway: SwaySession;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const ids = { foot: 0, scratch: 0, logs: 0 };
  /** The app names the desk gives the three windows ("Foot" from foot.desktop; the others by app id). */
  const FOOT = 'Foot';

  const exec = async (json: unknown) => {
    const r = await runCli(['exec', JSON.stringify(json)], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.json;
  };
  const run = (words: string) => runCli(['run', '--planner', 'local', '--yes', words], { env });
  const con = (id: number) => {
    const n = findCon(sway.msg('get_tree'), (c) => c.id === id);
    if (!n) throw new Error(`con ${id} is not in sway's tree`);
    return n;
  };
  const frame = (id: number) => frameOfCon(con(id));
  const floating = (n: TreeNode) => n.type === 'floating_con';

  beforeAll(async () => {
    sway = await startSway();
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-sway-cfg-'));
    // No Chrome here: a closed loopback port, so the tab source fails at once and says so.
    env = { ...sway.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: 'http://127.0.0.1:9', DESKPILOT_LLM_MODEL: '', DESKPILOT_NO_SERVICE: '1' };
    ids.logs = await sway.foot({ appId: 'logs', title: 'logs' });
    ids.scratch = await sway.foot({ appId: 'scratch', title: 'scratch' });
    ids.foot = await sway.foot({ title: 'main' });
  });

  afterAll(async () => {
    await sway?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Each case starts with the three windows tiled side by side on HEADLESS-1, none hidden or full screen.
  beforeEach(() => {
    for (const id of Object.values(ids)) {
      const n = con(id);
      if (n.scratch) sway.command(`[con_id=${id}] scratchpad show`);
      if (n.fullscreen_mode) sway.command(`[con_id=${id}] fullscreen disable`);
      if (floating(con(id))) sway.command(`[con_id=${id}] floating disable`);
      sway.command(`[con_id=${id}] move container to workspace 1`);
    }
    for (const id of Object.values(ids)) expect(con(id).type).toBe('con');
  });

  it('lists the windows with sway con ids and the outputs as monitors, LEFT/RIGHT roles by position', async () => {
    const r = await runCli(['windows', '--json'], { env });
    expect(r.code).toBe(0);
    const rows = r.json.windows as Array<{ id: string; app: string; title: string }>;
    expect(rows.map((w) => w.id).sort()).toEqual(Object.values(ids).map(String).sort());
    expect(rows.find((w) => w.id === String(ids.foot))).toMatchObject({ app: FOOT, title: 'main' });
    const monitors = r.json.monitors as Array<{ name: string; roles: string[]; work_area: number[] }>;
    expect(monitors.map((m) => [m.name, m.roles, m.work_area])).toEqual([
      ['HEADLESS-1', ['main', 'left'], [0, 23, 1920, 1080]],
      ['HEADLESS-2', ['right'], [1920, 23, 3840, 1080]],
    ]);
  });

  it('deskpilot doctor says sway is in use because SWAYSOCK is set, with both outputs and the three windows', async () => {
    const r = await runCli(['doctor'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Window backend: sway — sway 1\.\d+/);
    expect(r.stdout).toMatch(/why: SWAYSOCK is set/);
    expect(r.stdout).toMatch(/monitor HEADLESS-2 \(right\): \[1920,0,3840,1080\], work area \[1920,23,3840,1080\]/);
    expect(r.stdout).toMatch(/3 windows listed/);
  });

  it('"foot left half" (words) lands exactly on the left half of its output\'s work area, floating and focused; undo tiles it again', async () => {
    const before = frame(ids.foot);
    const r = await run('foot left half');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/made floating to place it; undo tiles it again/);
    const n = con(ids.foot);
    expect(frameOfCon(n)).toEqual([0, 23, 960, 1080]);
    expect(floating(n)).toBe(true);
    expect(n.focused).toBe(true);

    const u = await runCli(['undo'], { env });
    expect(u.code).toBe(0);
    expect(u.stdout).toMatch(/tiled again/);
    expect(con(ids.foot).type).toBe('con');
    expect(frame(ids.foot)).toEqual(before);
  });

  it('a preset saved with monitor "right" (as under X11) puts Foot on HEADLESS-2', async () => {
    writeFileSync(
      path.join(dir, 'presets.json'),
      JSON.stringify({ version: 1, presets: [{ name: 'sway right', placements: [{ app: FOOT, monitor: 'right', rect: [0.5, 0, 0.5, 1], launch: false }] }] }),
    );
    const r = await runCli(['presets', 'apply', 'sway right'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(frame(ids.foot)).toEqual([2880, 23, 3840, 1080]);
    expect(con(ids.foot).focused).toBe(true);
  });

  it('swap: two floating windows trade frames exactly', async () => {
    await exec([
      { type: 'place_app', app_name: FOOT, bounds: [100, 100, 900, 700] },
      { type: 'place_app', app_name: 'scratch', bounds: [2000, 200, 3000, 900] },
    ]);
    await exec({ type: 'swap_apps', app_names: [FOOT, 'scratch'] });
    expect(frame(ids.foot)).toEqual([2000, 200, 3000, 900]);
    expect(frame(ids.scratch)).toEqual([100, 100, 900, 700]);
  });

  it('tile: three tiled windows become three exact columns of the right output\'s work area', async () => {
    const report = await exec({ type: 'tile_apps', app_names: [FOOT, 'scratch', 'logs'], monitor: 'right' });
    expect(JSON.stringify(report)).toMatch(/made floating/);
    expect(frame(ids.foot)).toEqual([1920, 23, 2560, 1080]);
    expect(frame(ids.scratch)).toEqual([2560, 23, 3200, 1080]);
    expect(frame(ids.logs)).toEqual([3200, 23, 3840, 1080]);
    expect(con(ids.logs).focused).toBe(true);
  });

  it('minimise puts a window in the scratchpad; restore brings it back into the layout', async () => {
    await exec({ type: 'set_app_state', app_name: 'logs', state: 'minimized' });
    expect(con(ids.logs).scratch).toBe(true);
    const listed = (await runCli(['windows', '--json'], { env })).json.windows.find((w: { id: string }) => w.id === String(ids.logs));
    expect(listed.state).toBe('minimized');
    await exec({ type: 'set_app_state', app_name: 'logs', state: 'normal' });
    const n = con(ids.logs);
    expect(n.scratch).toBe(false);
    // It was tiled before it was hidden, so it is tiled again, not left floating.
    expect(n.type).toBe('con');
  });

  it('full screen, and undo leaves it', async () => {
    await exec({ type: 'set_app_state', app_name: 'scratch', state: 'fullscreen' });
    expect(con(ids.scratch).fullscreen_mode).toBe(1);
    expect((await runCli(['undo'], { env })).code).toBe(0);
    expect(con(ids.scratch).fullscreen_mode).toBe(0);
  });

  it('multi-level undo: three batches undone in one go, every window back in the tiling layout where it was', async () => {
    const before = Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, frame(id)]));
    await exec({ type: 'place_app', app_name: FOOT, layout: 'left_half' });
    await exec({ type: 'place_app', app_name: 'scratch', monitor: 'right', layout: 'maximize' });
    await exec({ type: 'place_app', app_name: 'logs', bounds: [300, 300, 1000, 800] });
    expect(frame(ids.scratch)).toEqual([1920, 23, 3840, 1080]);
    const u = await runCli(['undo', '3'], { env });
    expect(u.code).toBe(0);
    for (const [k, id] of Object.entries(ids)) {
      expect(con(id).type).toBe('con');
      expect(frame(id)).toEqual(before[k]);
    }
  });

  it('close_app asks the window to close (sway\'s kill is the close button\'s request): foot exits by itself', async () => {
    const id = await sway.foot({ appId: 'closeme', title: 'closeme' });
    const report = await exec({ type: 'close_app', app_name: 'closeme' });
    expect(report.results[0].message).toMatch(/^Closed closeme \(1 window\); its process has exited/);
    expect(findCon(sway.msg('get_tree'), (c) => c.id === id)).toBeNull();
  });
});
