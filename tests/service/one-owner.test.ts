import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostOrJoin } from '../../src/compose/service-host';
import { wireEngine } from '../../src/compose/wire-engine';
import { loadConfig } from '../../src/platform/config/load-config';
import { serviceSocketPath } from '../../src/platform/service/socket-path';
import { OWNER_FILE } from '../../src/platform/storage/desk-owner';
import { runCli } from '../support/cli';
import { serviceHealth, spawnService, stopAllServices } from './service-process';

// One device identity, one host (issue 24, D2): two `deskpilot service` processes on one config
// folder, each with its own XDG_RUNTIME_DIR (so each would listen on its own socket), both ran
// every command sent to the device. Real processes; no desktop is needed to see who hosts.

describe('one host per config folder, whatever the socket (real services)', () => {
  let tmp: string;
  let configDir: string;
  const envWith = (runtime: string): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, DESKPILOT_CONFIG_DIR: configDir, XDG_RUNTIME_DIR: runtime };
    delete env.DISPLAY;
    delete env.DESKPILOT_CHROME_URL;
    return env;
  };

  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-owner-'));
    configDir = path.join(tmp, 'config');
    for (const rt of ['rt1', 'rt2', 'rt3']) mkdirSync(path.join(tmp, rt), { mode: 0o700 });
  });
  afterAll(async () => {
    await stopAllServices();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a second service with another XDG_RUNTIME_DIR refuses to start, naming the first; the first keeps serving', async () => {
    const env1 = envWith(path.join(tmp, 'rt1'));
    const env2 = envWith(path.join(tmp, 'rt2'));
    const socket1 = serviceSocketPath(configDir, env1);
    expect(serviceSocketPath(configDir, env2)).not.toBe(socket1);

    const first = spawnService(env1);
    expect(await first.listening).toBe(socket1);
    const second = spawnService(env2);
    expect(await second.started).toEqual({ exited: 1 });
    expect(second.output()).toContain(`another DeskPilot host (pid ${first.pid}, socket ${socket1},`);
    expect(second.output()).toContain('already runs this device');

    expect((await serviceHealth(socket1))?.pid).toBe(first.pid);
    const status = await runCli(['service', 'status'], { env: env1 });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`(pid ${first.pid})`);
    // Asked with the other runtime folder, status names the service that runs for this folder.
    const elsewhere = await runCli(['service', 'status'], { env: env2 });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout).toContain(`one runs for ${configDir}: pid ${first.pid}, on ${socket1}`);
    await first.stop();
  }, 60_000);

  it('the app (hostOrJoin) with another XDG_RUNTIME_DIR becomes a client of the owner instead of a second host', async () => {
    const env1 = envWith(path.join(tmp, 'rt1'));
    const owner = spawnService(env1);
    const ownerSocket = await owner.listening;
    const saved = process.env.XDG_RUNTIME_DIR;
    process.env.XDG_RUNTIME_DIR = path.join(tmp, 'rt2');
    let wired = 0;
    try {
      const opened = await hostOrJoin(configDir, async () => {
        wired++;
        return wireEngine(await loadConfig({ configDir }, env1), { env: env1 });
      });
      expect(opened.role).toBe('client');
      expect(wired).toBe(1); // wired, found the device owned, disposed, joined
      expect((await opened.desk.health()).served?.health).toBe(1);
      await opened.desk.close();
      expect((await serviceHealth(ownerSocket))?.pid).toBe(owner.pid);
    } finally {
      if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = saved;
      await owner.stop();
    }
  }, 60_000);

  it('a host killed with SIGKILL does not keep the device: the next one starts at once, and a clean stop gives it up', async () => {
    const killed = spawnService(envWith(path.join(tmp, 'rt1')));
    await killed.listening;
    expect(JSON.parse(readFileSync(path.join(configDir, OWNER_FILE), 'utf8')).pid).toBe(killed.pid);
    killed.kill('SIGKILL');
    await killed.exited;

    const next = spawnService(envWith(path.join(tmp, 'rt2')));
    const socket = await next.listening;
    expect((await serviceHealth(socket))?.pid).toBe(next.pid);
    await next.stop();
    expect(await next.exited).toBe(0);
    expect(existsSync(path.join(configDir, OWNER_FILE))).toBe(false);

    const after = spawnService(envWith(path.join(tmp, 'rt3')));
    await after.listening;
    await after.stop();
  }, 60_000);
});
