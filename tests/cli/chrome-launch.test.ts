import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';

// `deskpilot chrome launch` starts a real Chromium with DeskPilot's profile; afterwards the
// CLI finds it on its own through the profile's DevToolsActivePort, with no endpoint configured.

describeDesktop('deskpilot chrome launch, then discovery', () => {
  let desk: Desktop;
  let configDir: string;
  let env: NodeJS.ProcessEnv;
  let pid: number | null = null;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: false });
    configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-launch-'));
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: configDir, DESKPILOT_CHROME_URL: '' };
    // Keep discovery away from any real profile of the machine running the tests.
    env.HOME = configDir;
    env.XDG_CONFIG_HOME = path.join(configDir, 'xdg');
  });

  afterAll(async () => {
    if (pid) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    await desk?.stop();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  it('without Chrome, explains how to connect it in one sentence', async () => {
    const r = await runCli(['exec', '{"type":"list_tabs"}'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^commands\[0\]: Chrome is not reachable: .*deskpilot chrome launch.*\n$/);
  });

  it('launches Chromium with the DeskPilot profile, reuses it, and exec finds it by itself', async () => {
    const first = await runCli(['chrome', 'launch'], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^started: .*chromium.* \(pid \d+\)\nDevTools endpoint: ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
    pid = Number(/pid (\d+)/.exec(first.stdout)![1]);
    const profile = path.join(configDir, 'chrome-profile');
    // Only this user may read it: it holds cookies and history once someone signs in there.
    expect(statSync(profile).mode & 0o777).toBe(0o700);
    const [port] = readFileSync(path.join(profile, 'DevToolsActivePort'), 'utf8').split('\n');
    expect(first.stdout).toContain(`ws://127.0.0.1:${port}/`);

    const again = await runCli(['chrome', 'launch'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^already running: /);

    const wsUrl = /DevTools endpoint: (\S+)/.exec(first.stdout)![1]!;
    const raw = await RawCdp.connect(wsUrl);
    try {
      const url = desk.pages.url('page', { title: 'Found' });
      const r = await runCli(['exec', JSON.stringify({ type: 'open_url', url })], { env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      await raw.waitFor(async () => (await raw.titles()).includes('Found'));
      const status = await runCli(['chrome', 'status'], { env });
      expect(status.stdout).toMatch(/^endpoint: auto/);
      expect(status.stdout).toMatch(/connected: Chromium/);
    } finally {
      await raw.dispose();
    }
  });
});
