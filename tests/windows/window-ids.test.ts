import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataOf, stdioClient, textOf, type McpTestClient } from '../mcp/mcp-client';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { launch, startDesktop, stopProc, type Desktop, type Proc } from '../support/desktop';
import { waitFor } from '../support/wait-for';
import { frameOf, isHidden, wmWindows, type Frame } from '../support/x-observe';

// Issue 27: windows, not just apps. Three xterms with distinct titles (xterm -T) and Chromium on
// the real test desktop; each request names one window by its id and lands on it only — read
// back with xwininfo/xprop/wmctrl, never through DeskPilot — and an id that closed is refused.

interface Row {
  app: string;
  id: string;
  title: string;
  bounds: Frame;
  monitor: string | null;
  state: string;
  stacking: number;
  pid: number | null;
  browser_window_id?: number;
  tab_ids?: string[];
}

const TITLES = ['dp-one', 'dp-two', 'dp-three'];

describeDesktop('windows by id on a real X11 desktop (issue 27)', () => {
  let desk: Desktop;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let mcp: McpTestClient;
  const ids: Record<string, string> = {};
  const xterms: Proc[] = [];

  const exec = (json: unknown) => runCli(['exec', JSON.stringify(json)], { env });
  const rows = async (): Promise<Row[]> => {
    const r = await runCli(['windows', '--json'], { env });
    expect(r.stderr).toBe('');
    return r.json.windows;
  };
  const framesOfAll = () => Object.fromEntries(TITLES.map((t) => [t, frameOf(env, ids[t]!)]));
  /** _NET_CLIENT_LIST_STACKING, bottom to top, as the X server holds it. */
  const stacking = () => {
    const out = execFileSync('xprop', ['-root', '_NET_CLIENT_LIST_STACKING'], { env, encoding: 'utf8' });
    return [...out.matchAll(/0x[0-9a-f]+/gi)].map((m) => parseInt(m[0], 16));
  };

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    for (const title of TITLES) xterms.push(await launch(title, 'xterm', ['-T', title, '-geometry', '60x15'], desk.env));
    await waitFor('three xterm windows', () => TITLES.every((t) => wmWindows(desk.env).some((w) => w.title === t)));
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-window-ids-'));
    mkdirSync(path.join(dir, 'data', 'applications'), { recursive: true });
    env = {
      ...desk.env,
      DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
      DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_DATA_DIRS: '/usr/share',
    };
    for (const w of wmWindows(desk.env)) if (TITLES.includes(w.title)) ids[w.title] = `0x${w.id.toString(16)}`;
    mcp = await stdioClient(env);
  });

  afterAll(async () => {
    await mcp?.close();
    for (const p of xterms) await stopProc(p);
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('deskpilot windows lists every window with its id, title, state and stacking order, as X has them', async () => {
    const list = await rows();
    const xterms = list.filter((r) => r.app === 'XTerm');
    expect(xterms.map((r) => r.title).sort()).toEqual([...TITLES].sort());
    for (const r of xterms) {
      expect(Number(r.id)).toBe(Number(ids[r.title]));
      expect(r.bounds).toEqual(frameOf(env, r.id));
      expect(r.state).toBe('normal');
    }
    // Topmost first, as _NET_CLIENT_LIST_STACKING says (bottom to top).
    expect(list.map((r) => r.stacking)).toEqual(list.map((_, i) => i));
    expect(list.map((r) => Number(r.id))).toEqual([...stacking()].reverse().filter((id) => list.some((r) => Number(r.id) === id)));
    const chromium = list.find((r) => r.app === 'Chromium')!;
    expect(chromium.tab_ids?.length).toBeGreaterThan(0);
    expect(typeof chromium.browser_window_id).toBe('number');
    const text = await runCli(['windows'], { env });
    expect(text.stdout).toMatch(new RegExp(`XTerm {2}${ids['dp-two']} {2}"dp-two" {2}on (LEFT|RIGHT) \\[`));
  });

  it('place_app with a window_id moves that xterm and no other', async () => {
    const before = framesOfAll();
    const r = await exec({ type: 'place_app', app_name: 'XTerm', window_id: ids['dp-two'], bounds: [2100, 100, 2700, 500] });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const after = framesOfAll();
    expect(after['dp-two']!.slice(0, 2)).toEqual([2100, 100]);
    expect(after['dp-one']).toEqual(before['dp-one']);
    expect(after['dp-three']).toEqual(before['dp-three']);
  });

  it('set_app_state minimises only the xterm named by id', async () => {
    const r = await exec({ type: 'set_app_state', app_name: 'XTerm', window_id: ids['dp-three'], state: 'minimized' });
    expect(r.code).toBe(0);
    await waitFor('dp-three minimised', () => isHidden(env, ids['dp-three']!));
    expect(isHidden(env, ids['dp-one']!)).toBe(false);
    expect(isHidden(env, ids['dp-two']!)).toBe(false);
    expect((await rows()).find((w) => w.title === 'dp-three')!.state).toBe('minimized');
    await exec({ type: 'set_app_state', app_name: 'XTerm', window_id: ids['dp-three'], state: 'normal' });
    await waitFor('dp-three restored', () => !isHidden(env, ids['dp-three']!));
  });

  it('two windows of one app swap by their ids: each takes the other\'s place', async () => {
    await exec({ type: 'place_app', app_name: 'XTerm', window_id: ids['dp-one'], bounds: [100, 100, 700, 500] });
    const [one, two] = [frameOf(env, ids['dp-one']!), frameOf(env, ids['dp-two']!)];
    const three = frameOf(env, ids['dp-three']!);
    const r = await exec({ type: 'swap_apps', app_names: ['XTerm', 'XTerm'], window_ids: [ids['dp-one'], ids['dp-two']] });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(frameOf(env, ids['dp-one']!).slice(0, 2)).toEqual(two.slice(0, 2));
    expect(frameOf(env, ids['dp-two']!).slice(0, 2)).toEqual(one.slice(0, 2));
    expect(frameOf(env, ids['dp-three']!)).toEqual(three);
  });

  it('after a swap neither window is hidden: the small one ends above the large one that holds its frame (stacking order)', async () => {
    const chromium = (await rows()).find((r) => r.app === 'Chromium')!;
    await exec({ type: 'place_app', app_name: 'XTerm', window_id: ids['dp-one'], bounds: [100, 100, 1500, 900] });
    await exec({ type: 'place_app', app_name: 'Chromium', bounds: [300, 300, 900, 700] });
    // XTerm first: placed first, raised first — the browser, placed last, would cover it entirely.
    const r = await exec({ type: 'swap_apps', app_names: ['XTerm', 'Chromium'], window_ids: [ids['dp-one'], null] });
    expect(r.code).toBe(0);
    const [xterm, browser] = [frameOf(env, ids['dp-one']!), frameOf(env, chromium.id)];
    expect(browser.slice(0, 2)).toEqual([100, 100]);
    expect(xterm.slice(0, 2)).toEqual([300, 300]);
    expect(browser[0] <= xterm[0] && browser[1] <= xterm[1] && browser[2] >= xterm[2] && browser[3] >= xterm[3]).toBe(true);
    const order = stacking();
    expect(order.indexOf(Number(ids['dp-one']))).toBeGreaterThan(order.indexOf(Number(chromium.id)));
  });

  it('over MCP: list_windows gives the ids, and place_app takes one with the monitor as the snapshot prints it ("LEFT")', async () => {
    const listed = await mcp.call('list_windows');
    expect(listed.isError).toBeFalsy();
    const w = (dataOf(listed).windows as Row[]).find((x) => x.title === 'dp-two')!;
    expect(Number(w.id)).toBe(Number(ids['dp-two']));
    expect(textOf(listed)).toContain(`"dp-two"`);
    const before = framesOfAll();
    const placed = await mcp.call('place_app', { app_name: 'XTerm', window_id: w.id, monitor: 'LEFT' });
    expect(placed.isError, textOf(placed)).toBeFalsy();
    const after = framesOfAll();
    expect(after['dp-two']![0]).toBeLessThan(1920);
    expect(after['dp-one']).toEqual(before['dp-one']);
    expect(after['dp-three']).toEqual(before['dp-three']);
  });

  it('a window id that closed is refused with a clear error and nothing moves', async () => {
    const gone = ids['dp-three']!;
    execFileSync('wmctrl', ['-ic', gone], { env });
    await waitFor('dp-three closed', () => !wmWindows(env).some((w) => w.title === 'dp-three'));
    const before = { one: frameOf(env, ids['dp-one']!), two: frameOf(env, ids['dp-two']!) };
    const r = await exec({ type: 'place_app', app_name: 'XTerm', window_id: gone, bounds: [300, 300, 900, 700] });
    expect(r.code).toBe(2);
    expect(r.json.errors).toEqual([
      { path: 'commands[0].window_id', message: `no window ${gone} is open now (it closed after the list it came from); list the windows again and use an id from there` },
    ]);
    expect(frameOf(env, ids['dp-one']!)).toEqual(before.one);
    expect(frameOf(env, ids['dp-two']!)).toEqual(before.two);
  });
});
