import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { activeWindow, wmWindows } from '../support/x-observe';

// What ends up in front after a batch, on a real X desktop (Xvfb, openbox, xterm, xclock,
// Chromium): placed windows are raised, the last one placed gets the focus unless the batch
// named another, and raise:false leaves a window where it was. Read back with xprop.

describeDesktop('placed windows come to the front (real X11 desktop)', () => {
  let desk: Desktop;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let ids: { xterm: number; xclock: number; chromium: number };

  const exec = (json: unknown) => runCli(['exec', JSON.stringify(json)], { env });
  const run = (words: string) => runCli(['run', '--planner', 'local', words], { env });
  const hex = (n: number) => `0x${n.toString(16)}`;
  /** Bottom to top, from the window manager's own stacking list. */
  const stacking = () =>
    [...execFileSync('xprop', ['-root', '_NET_CLIENT_LIST_STACKING'], { env, encoding: 'utf8' }).matchAll(/0x[0-9a-f]+/g)].map((m) => parseInt(m[0], 16));
  const above = (a: number, b: number) => stacking().indexOf(a) > stacking().indexOf(b);
  const chromiumName = async () => {
    const snap = (await runCli(['context', '--json', '--no-summaries'], { env })).json;
    return snap.running_apps.find((a: { pid: number }) => a.pid === desk.chrome!.pid).name as string;
  };

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm', 'xclock'], chrome: true });
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-front-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_LLM_MODEL: '' };
    const byPid = (pid: number) => wmWindows(env).find((w) => w.pid === pid)!.id;
    ids = { xterm: byPid(desk.pids.apps.xterm!), xclock: byPid(desk.pids.apps.xclock!), chromium: byPid(desk.chrome!.pid) };
  });

  afterAll(async () => {
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Each case starts with Chromium covering the left monitor, focused and on top of everything.
  beforeEach(async () => {
    const r = await exec([
      { type: 'place_app', app_name: await chromiumName(), bounds: [0, 0, 1920, 1080] },
      { type: 'focus_app', app_name: await chromiumName() },
    ]);
    expect(r.stderr).toBe('');
    expect(stacking().at(-1)).toBe(ids.chromium);
    expect(activeWindow(env)).toBe(ids.chromium);
  });

  it('"xclock left half and xterm right half" (words): both come out from behind the browser, the last one placed has the focus', async () => {
    expect(above(ids.chromium, ids.xterm) && above(ids.chromium, ids.xclock)).toBe(true);
    const r = await run('xclock left half and xterm right half');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(above(ids.xclock, ids.chromium)).toBe(true);
    expect(stacking().at(-1)).toBe(ids.xterm);
    expect(activeWindow(env)).toBe(ids.xterm);
  });

  it('a window the batch focuses by name ends in front, even when windows are placed after it', async () => {
    const r = await exec([
      { type: 'focus_app', app_name: 'XTerm' },
      { type: 'place_app', app_name: 'XClock', bounds: [100, 100, 400, 400] },
    ]);
    expect(r.code).toBe(0);
    expect(activeWindow(env)).toBe(ids.xterm);
    expect(stacking().at(-1)).toBe(ids.xterm);
    // The clock was still raised above the browser it was behind.
    expect(above(ids.xclock, ids.chromium)).toBe(true);
  });

  it('raise:false leaves a placed window behind, and the focus where it was', async () => {
    const r = await exec({ type: 'place_app', app_name: 'XTerm', bounds: [300, 300, 900, 800], raise: false });
    expect(r.code).toBe(0);
    expect(above(ids.chromium, ids.xterm)).toBe(true);
    expect(activeWindow(env)).toBe(ids.chromium);
  });

  it('undo gives the focus back to the window that had it', async () => {
    expect((await exec({ type: 'place_app', app_name: 'XTerm', bounds: [200, 200, 800, 700] })).code).toBe(0);
    expect(activeWindow(env)).toBe(ids.xterm);
    const u = await runCli(['undo'], { env });
    expect(u.code).toBe(0);
    expect(activeWindow(env)).toBe(ids.chromium);
    expect(hex(stacking().at(-1)!)).toBe(hex(ids.chromium));
  });
});
