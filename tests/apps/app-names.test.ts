// Apps as people name them, end to end: the real CLI against a real X desktop (Xvfb, openbox,
// Debian's Chromium, xterm and xclock, the system's .desktop files). Effects are read back with
// wmctrl/xwininfo and over the browser's own DevTools connection, never through DeskPilot.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { stopGroup } from '../support/process-group';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { frameOf, wmWindows } from '../support/x-observe';

/** Process groups of apps DeskPilot launched; stopped after each test even when it failed. */
const launched: number[] = [];

describeDesktop('apps as people name them (real CLI, real X desktop)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  const cli = (...args: string[]) => runCli(args, { env });
  const run = (words: string) => runCli(['run', '--planner', 'local', '--json', words], { env });
  const snap = async () => (await cli('context', '--json', '--no-summaries')).json;
  const windowsOfPid = (pid: number) => wmWindows(env).filter((w) => w.pid === pid);
  /** Runs words that must start `app`, and waits for its window. */
  async function launches(words: string, app: string) {
    const r = await run(words);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.envelope.commands).toEqual([{ type: 'focus_app', app_name: app }]);
    const pid = r.json.results[0].data.pid as number;
    launched.push(pid);
    return waitFor(`the ${app} window`, () => windowsOfPid(pid)[0]);
  }

  beforeAll(async () => {
    desk = await startDesktop({ apps: [], chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-app-names-'));
    mkdirSync(path.join(dir, 'data', 'applications'), { recursive: true });
    env = {
      ...desk.env,
      DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
      DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
      DESKPILOT_LLM_MODEL: '',
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_DATA_DIRS: '/usr/share',
    };
  });

  afterEach(async () => {
    await Promise.all(launched.splice(0).map(stopGroup));
  });

  afterAll(async () => {
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('Chromium is "Chromium" (its window class says Chromium-browser); the terminal and the browser are known by kind, the defaults marked', async () => {
    const s = await snap();
    expect(s.running_apps.find((a: { pid: number }) => a.pid === desk.chrome!.pid).name).toBe('Chromium');
    const installed = Object.fromEntries(s.installed_apps.map((a: { name: string }) => [a.name, a]));
    // Debian: x-www-browser → chromium, x-terminal-emulator → lxterm, a wrapper that starts xterm.
    expect(installed.Chromium).toEqual({ name: 'Chromium', generic_name: 'Web Browser', keywords: ['Chromium Web Browser', 'browser'], default_for: ['browser'] });
    expect(installed.XTerm).toMatchObject({ generic_name: 'Terminal', default_for: ['terminal'] });
    expect(installed.UXTerm).toMatchObject({ generic_name: 'Terminal' });
    expect(installed.UXTerm.default_for).toBeUndefined();
  });

  it('"Google Chrome" in a command moves Chromium, and the plan and result say it is Chromium', async () => {
    const id = `0x${windowsOfPid(desk.chrome!.pid)[0]!.id.toString(16)}`;
    const r = await cli('exec', JSON.stringify({ type: 'place_app', app_name: 'Google Chrome', bounds: [2020, 100, 3020, 900] }));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json.plan[0].summary).toBe('move Chromium (for "Google Chrome") to 1000x800 at 2020,100');
    expect(r.json.results[0].message).toMatch(/^Chromium → 1000x800 at 2020,100/);
    expect(frameOf(env, id)).toEqual([2020, 100, 3020, 900]);
  });

  it('"open xclock" with no XClock app asks and opens no tab; with its .desktop file it starts XClock, and "the clock" is it', async () => {
    const tabsBefore = (await raw.pages()).length;
    const asked = await run('open xclock');
    expect(asked.code).toBe(3);
    expect(asked.stderr).toMatch(/No app or site I know is called "xclock"\. Say its address, e\.g\. "open xclock\.com"/);
    expect((await raw.pages()).length).toBe(tabsBefore);
    expect(wmWindows(env).some((w) => /xclock/i.test(w.title))).toBe(false);

    writeFileSync(path.join(dir, 'data', 'applications', 'xclock.desktop'), '[Desktop Entry]\nType=Application\nName=XClock\nExec=xclock\nCategories=Utility;Clock;\n');
    const clock = await launches('open xclock', 'XClock');
    expect((await raw.pages()).length).toBe(tabsBefore);

    const moved = await run('put the clock on the right monitor');
    expect(moved.stderr).toBe('');
    expect(moved.json.envelope.commands).toEqual([{ type: 'place_app', app_name: 'XClock', monitor: 'right' }]);
    const f = frameOf(env, `0x${clock.id.toString(16)}`);
    expect(f[0]).toBeGreaterThanOrEqual(1920);
  });

  it('"open the terminal" starts the default terminal emulator (XTerm here)', async () => {
    await launches('open the terminal', 'XTerm');
  });
});
