import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppService } from '../../src/app/app-service';
import { hostOrJoin } from '../../src/compose/service-host';
import { loadConfig } from '../../src/platform/config/load-config';
import { SettingsStore } from '../../src/platform/config/settings-store';
import { serviceSocketPath } from '../../src/platform/service/socket-path';
import { wireEngine } from '../../src/compose/wire-engine';
import { runCli } from '../support/cli';
import { waitFor } from '../support/wait-for';
import { serviceHealth, spawnService, stopAllServices } from './service-process';

// The app's main process and the service are one host per desk: the app serves its own
// engine on the socket when no service runs (the CLI then uses the app's warm engine), and
// is a client of the service when one does. This is the Electron-free part main wires
// (src/main/index.ts passes hostOrJoin as the AppService's desk); only Electron is missing.

describe('the app hosts the socket, or uses the running service', () => {
  let tmp: string;
  let configDir: string;
  let env: NodeJS.ProcessEnv;
  let socketPath: string;
  let wired = 0;
  let role = '';
  const apps: AppService[] = [];

  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-apphost-'));
    configDir = path.join(tmp, 'config');
    // No desktop is needed to see who serves a request: no DISPLAY, no Chrome.
    env = { ...process.env, DESKPILOT_CONFIG_DIR: configDir, HOME: path.join(tmp, 'home') };
    delete env.DISPLAY;
    delete env.DESKPILOT_CHROME_URL;
    socketPath = serviceSocketPath(configDir, env);
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.dispose()));
    await stopAllServices();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** An AppService wired as src/main wires it, with stand-ins only for what Electron provides. */
  function appService(): AppService {
    const app = new AppService({
      desk: async () => {
        const opened = await hostOrJoin(configDir, async () => {
          wired++;
          return wireEngine(await loadConfig({ configDir }, env), { env });
        });
        role = opened.role;
        return opened.desk;
      },
      settings: new SettingsStore(path.join(configDir, 'config.json'), { get: async () => null, set: async () => undefined }),
      hotkeys: () => ({ launcher: { accelerator: 'Alt+Space', registered: true, error: null }, voice: { accelerator: 'Alt+V', registered: true, error: null } }),
      hideWindow: () => false,
      launchChrome: async () => 'not in this test',
      transcribe: async () => '',
      voiceConfigured: async () => false,
    });
    apps.push(app);
    return app;
  }

  it('with no service running, the app serves its engine and the CLI uses it', async () => {
    const app = appService();
    await app.start();
    expect(role).toBe('host');
    expect(wired).toBe(1);

    const status = await runCli(['service', 'status'], { env });
    expect(status.code).toBe(0);
    // The process answering on the socket is this one: the app's engine.
    expect(status.stdout).toContain(`(pid ${process.pid})`);
    const listed = await runCli(['exec', JSON.stringify({ type: 'list_apps' })], { env });
    expect(listed.json.status).toBe('unavailable');
    expect((await serviceHealth(socketPath))?.served?.exec).toBe(1);

    const second = spawnService(env);
    expect(await second.started).toEqual({ exited: 1 });
    expect(second.output()).toContain('already running');

    await app.dispose();
    expect(existsSync(socketPath)).toBe(false);
    expect((await runCli(['service', 'status'], { env })).code).toBe(1);
  }, 120_000);

  it('with a service running, the app is its client: commands go to the service and no engine is wired here', async () => {
    const svc = spawnService(env);
    await svc.listening;
    wired = 0;
    const app = appService();
    await app.start();
    expect(role).toBe('client');

    const before = (await serviceHealth(socketPath))!.served!;
    const answer = await app.submit('switch to the reddit tab', 'local');
    expect(answer.kind).not.toBe('error');
    const status = await app.status();
    expect(status.planner).toEqual({ kind: 'local', description: 'offline matcher' });
    expect(await app.handlers()['presets:list']({})).toEqual([]);
    const after = (await serviceHealth(socketPath))!.served!;
    expect(after.plan).toBe((before.plan ?? 0) + 1);
    expect(after['presets.list']).toBe((before['presets.list'] ?? 0) + 1);
    expect(after.health).toBe((before.health ?? 0) + 2); // the app's status, and ours above
    expect(wired).toBe(0);

    // The service stops: the app's next command finds it gone and hosts its own engine.
    await svc.stop();
    await waitFor(
      'the app to host the engine itself',
      async () => (await app.status().then(() => role === 'host', () => false)) || undefined,
      60_000,
    );
    expect(wired).toBe(1);
    const status2 = await runCli(['service', 'status'], { env });
    expect(status2.stdout).toContain(`(pid ${process.pid})`);
  }, 120_000);
});
