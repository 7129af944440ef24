import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Health } from '../../src/protocol/service';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';
import { restartableDesk, type RestartableDesk } from './restartable-desk';
import { serviceHealth, spawnService, stopAllServices, type ServiceProcess } from './service-process';

// The warm service outlives what it is connected to: Chrome restarting, the X server going
// away and coming back. Meanwhile it answers and says what is unavailable; afterwards it
// works again without being restarted. Every wait is on a condition, with a generous bound.

const RECOVER_MS = 90_000;

describeDesktop('the deskpilot service survives Chrome and the X server restarting', () => {
  let tmp: string;
  let desk: RestartableDesk;
  let env: NodeJS.ProcessEnv;
  let svc: ServiceProcess;
  let socketPath: string;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-recover-'));
    const configDir = path.join(tmp, 'config');
    // DeskPilot's own Chrome profile: the service finds a restarted Chrome's new port there.
    const profileDir = path.join(configDir, 'chrome-profile');
    mkdirSync(profileDir, { recursive: true });
    desk = await restartableDesk(profileDir);
    // HOME is private too, so no other browser on this machine is found instead of ours.
    env = { ...desk.env, DESKPILOT_CONFIG_DIR: configDir, HOME: path.join(tmp, 'home') };
    delete env.XDG_RUNTIME_DIR;
    delete env.DESKPILOT_CHROME_URL;
    await desk.startX();
    await desk.startChrome();
    svc = spawnService(env);
    socketPath = await svc.listening;
  }, 180_000);

  afterAll(async () => {
    await stopAllServices();
    await desk?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** Polls the service until its health satisfies `ok`; the same process answers throughout. */
  const healthUntil = (what: string, ok: (h: Health) => boolean) =>
    waitFor(
      what,
      async () => {
        const h = await serviceHealth(socketPath);
        expect(h?.pid).toBe(svc.pid);
        return ok(h!) ? h! : undefined;
      },
      RECOVER_MS,
    );
  const served = async () => (await serviceHealth(socketPath))?.served?.exec ?? 0;
  const listTabs = () => runCli(['exec', JSON.stringify({ type: 'list_tabs' })], { env });

  it('Chrome quits: the service says Chrome is unavailable; Chrome starts again: it works again', async () => {
    await healthUntil('Chrome to be connected', (h) => h.chrome.ok);
    const before = await served();
    expect((await listTabs()).code).toBe(0);

    await desk.stopChrome();
    const down = await healthUntil('the service to notice Chrome is gone', (h) => !h.chrome.ok);
    expect(down.chrome.message).toContain('Chrome is not reachable');
    const meanwhile = await listTabs();
    expect(meanwhile.code).toBe(1);
    expect(meanwhile.json.status).toBe('unavailable');

    await desk.startChrome();
    await healthUntil('Chrome to be connected again', (h) => h.chrome.ok);
    const again = await listTabs();
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.json.results[0].data.tabs.map((t: { url: string }) => t.url)).toEqual(['about:blank']);
    // All three went through the same service.
    expect(await served()).toBe(before + 3);
  }, 300_000);

  it('the X server goes away: windows are unavailable; it comes back: windows work again', async () => {
    await healthUntil('windows to be available', (h) => h.windows.ok);
    const xterms = async () => {
      const ctx = await runCli(['context', '--json', '--no-summaries'], { env });
      expect(ctx.code).toBe(0);
      return ctx.json;
    };
    expect((await xterms()).running_apps.map((a: { name: string }) => a.name)).toContain('XTerm');

    await desk.stopX();
    const down = await healthUntil('the service to notice the X server is gone', (h) => !h.windows.ok);
    expect(down.windows.message).toContain(desk.display);
    const meanwhile = await xterms();
    expect(meanwhile.sources.windows.ok).toBe(false);
    expect(meanwhile.running_apps).toEqual([]);

    await desk.startX();
    await healthUntil('windows to be available again', (h) => h.windows.ok);
    const again = await xterms();
    expect(again.sources.windows.ok).toBe(true);
    expect(again.running_apps.map((a: { name: string }) => a.name)).toContain('XTerm');
    const focus = await runCli(['exec', JSON.stringify({ type: 'focus_app', app_name: 'XTerm' })], { env });
    expect(focus.stderr).toBe('');
    expect(focus.code).toBe(0);
  }, 300_000);
});
