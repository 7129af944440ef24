import { existsSync, lstatSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { serviceHealth, spawnService, stopAllServices, type ServiceProcess } from './service-process';

// The CLI and the warm service as a user runs them: real processes, the real socket, a real
// desktop with Chromium. Whether a call went through the service is read from the service
// itself (the requests it served, by method), never guessed from timing.

describeDesktop('the CLI and a running deskpilot service', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let configDir: string;
  let env: NodeJS.ProcessEnv;
  let svc: ServiceProcess;
  let socketPath: string;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-svc-'));
    env = { ...desk.env, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_CONFIG_DIR: configDir };
    delete env.XDG_RUNTIME_DIR;
    const before = await raw.pages();
    for (const t of ['One', 'Two', 'Three', 'Four']) await raw.open(desk.pages.url('page', { title: t, desc: `about ${t}` }));
    for (const p of before) await raw.close(p.targetId);
    svc = spawnService(env);
    socketPath = await svc.listening;
  }, 120_000);

  afterAll(async () => {
    await stopAllServices();
    await raw?.dispose();
    await desk?.stop();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  const served = async (method: string) => (await serviceHealth(socketPath))?.served?.[method] ?? 0;
  /** What may differ between two runs of the same command: the batch's id and the snapshot's time. */
  const sameShape = (report: Record<string, unknown>) => ({ ...report, batch_id: typeof report.batch_id, snapshot_taken_at: typeof report.snapshot_taken_at });
  const visible = async (title: string) => {
    const target = (await raw.pages()).find((p) => p.title === title)!.targetId;
    return (await raw.evaluate(target, 'document.visibilityState')) === 'visible';
  };
  const activate = async (title: string) => {
    const target = (await raw.pages()).find((p) => p.title === title)!.targetId;
    await runCli(['--no-service', 'exec', JSON.stringify({ type: 'switch_tab', tab_index: ['One', 'Two', 'Three', 'Four'].indexOf(title) + 1 })], { env });
    await raw.waitFor(async () => (await raw.evaluate(target, 'document.visibilityState')) === 'visible');
  };

  it('exec switch_tab through the service gives the same report as in-process, and the service served it', async () => {
    const switchTo2 = JSON.stringify({ type: 'switch_tab', tab_index: 2 });
    await activate('One');
    const execsBefore = await served('exec');

    const local = await runCli(['--no-service', 'exec', switchTo2], { env });
    expect(local.code).toBe(0);
    expect(await visible('Two')).toBe(true);
    // --no-service really ran in the CLI's own process.
    expect(await served('exec')).toBe(execsBefore);

    await activate('One');
    const remote = await runCli(['exec', switchTo2], { env });
    expect(remote.stderr).toBe('');
    expect(remote.code).toBe(0);
    expect(await served('exec')).toBe(execsBefore + 1);
    expect(await visible('Two')).toBe(true);

    expect(remote.json.results[0].message).toBe('Switched to tab 2 "Two" (127.0.0.1)');
    expect(sameShape(remote.json)).toEqual(sameShape(local.json));
  }, 120_000);

  it('context --json through the service is the snapshot the CLI takes in-process', async () => {
    const snapshotsBefore = await served('snapshot');
    const remote = await runCli(['context', '--json', '--no-summaries'], { env });
    const local = await runCli(['--no-service', 'context', '--json', '--no-summaries'], { env });
    expect(remote.code).toBe(0);
    expect(local.code).toBe(0);
    expect(await served('snapshot')).toBe(snapshotsBefore + 1);
    expect(remote.json.sources.chrome.ok).toBe(true);
    expect(remote.json.sources.windows.ok).toBe(true);
    // The same desk, plus what only the warm service can know: when it saw each tab used.
    expect(remote.json.tab_usage.source).toBe('service');
    expect(local.json.tab_usage).toBeUndefined();
    type Snap = Record<string, unknown> & { tabs: Array<Record<string, unknown>> };
    const timeless = ({ tab_usage: _, ...s }: Snap) => ({
      ...s,
      taken_at: typeof s.taken_at,
      tabs: s.tabs.map(({ last_used_at: _used, ...t }) => t),
    });
    expect(timeless(remote.json)).toEqual(timeless(local.json));

    const status = await runCli(['service', 'status'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`(pid ${svc.pid})`);
    expect(status.stdout).toMatch(/served: .*snapshot \d+/);
  }, 120_000);

  it('a second service refuses to start while one runs, and the first keeps serving', async () => {
    const second = spawnService(env);
    expect(await second.started).toEqual({ exited: 1 });
    expect(second.output()).toContain(`a DeskPilot service is already running on ${socketPath}`);
    expect((await serviceHealth(socketPath))?.pid).toBe(svc.pid);
  }, 120_000);

  it('SIGTERM stops a service cleanly: exit code 0, "stopped", its socket removed', async () => {
    const own = { ...env, DESKPILOT_CONFIG_DIR: mkdtempSync(path.join(os.tmpdir(), 'dp-sigterm-')) };
    const other = spawnService(own);
    const itsSocket = await other.listening;
    other.kill('SIGTERM');
    expect(await other.exited).toBe(0);
    expect(other.output()).toContain('DeskPilot service stopped');
    expect(existsSync(itsSocket)).toBe(false);
  }, 120_000);

  it('a service killed with SIGKILL leaves a stale socket: the CLI runs in-process meanwhile, the next service removes it', async () => {
    svc.kill('SIGKILL');
    await svc.exited;
    expect(lstatSync(socketPath).isSocket()).toBe(true);
    expect(await serviceHealth(socketPath)).toBeNull();

    const meanwhile = await runCli(['context', '--json', '--no-summaries'], { env });
    expect(meanwhile.stderr).toBe('');
    expect(meanwhile.code).toBe(0);
    expect(meanwhile.json.tabs.map((t: { title: string }) => t.title)).toEqual(['One', 'Two', 'Three', 'Four']);

    svc = spawnService(env);
    expect(await svc.listening).toBe(socketPath);
    expect(svc.output()).toContain('removed a stale socket');
    expect((await serviceHealth(socketPath))?.pid).toBe(svc.pid);
    const through = await runCli(['exec', JSON.stringify({ type: 'list_tabs' })], { env });
    expect(through.code).toBe(0);
    expect(await served('exec')).toBe(1);
  }, 120_000);
});
