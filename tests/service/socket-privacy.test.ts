import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPath } from '../../src/platform/service/unit-install';
import { runCli } from '../support/cli';
import { serviceHealth, spawnService, stopAllServices, type ServiceProcess } from './service-process';

// The service socket is this user's alone: a real service, and a real client started as
// another user (nobody) that must be refused by the kernel.

const ROOT = typeof process.getuid === 'function' && process.getuid() === 0;
const RUNUSER = onPath('runuser', { PATH: `${process.env.PATH}:/usr/sbin:/sbin` });
const NOBODY_UID = 65534;

/** Tries to connect to the socket as user nobody; resolves with "connected" or the error code. */
function connectAsNobody(socketPath: string): Promise<string> {
  const script = `const s = require('net').connect(process.argv[1]); s.on('connect', () => { console.log('connected'); s.destroy(); }); s.on('error', (e) => console.log(e.code));`;
  return new Promise((resolve, reject) => {
    execFile(RUNUSER!, ['-u', 'nobody', '--', process.execPath, '-e', script, socketPath], { timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`runuser failed: ${err.message}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

describe('the service socket is private to its user', () => {
  let configDir: string;
  let env: NodeJS.ProcessEnv;
  let svc: ServiceProcess | null = null;

  beforeAll(() => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-sock-'));
    // No runtime dir: the socket goes into the config folder's run/ folder.
    env = { ...process.env, DESKPILOT_CONFIG_DIR: configDir };
    delete env.XDG_RUNTIME_DIR;
    delete env.DISPLAY;
  });

  afterAll(async () => {
    await stopAllServices();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('a folder that belongs to another user is refused, and nothing listens there', async () => {
    if (!ROOT) return; // only root can give the folder to someone else
    const run = path.join(configDir, 'run');
    mkdirSync(run, { mode: 0o700 });
    chownSync(run, NOBODY_UID, NOBODY_UID);
    const other = spawnService(env);
    expect(await other.started).toEqual({ exited: 1 });
    expect(other.output()).toContain(`${run} belongs to another user (uid ${NOBODY_UID})`);
    rmSync(run, { recursive: true });
  }, 120_000);

  it('the socket is 0600 in a 0700 folder, also when the folder was there with looser permissions', async () => {
    mkdirSync(path.join(configDir, 'run'), { mode: 0o755 });
    chmodSync(path.join(configDir, 'run'), 0o755);
    svc = spawnService(env);
    const socketPath = await svc.listening;
    expect(socketPath).toBe(path.join(configDir, 'run', 'service.sock'));
    expect(statSync(socketPath).isSocket()).toBe(true);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
    expect((await serviceHealth(socketPath))?.pid).toBe(svc.pid);
  }, 120_000);

  it.skipIf(!ROOT || !RUNUSER)("another user's process cannot connect (EACCES), even with the folders opened up", async () => {
    const socketPath = await svc!.listening;
    expect(await connectAsNobody(socketPath)).toBe('EACCES');
    // With every folder on the way traversable, the socket's own 0600 still refuses.
    chmodSync(configDir, 0o711);
    chmodSync(path.dirname(socketPath), 0o711);
    try {
      expect(await connectAsNobody(socketPath)).toBe('EACCES');
      // The check can fail: with the socket opened up, the same client gets in.
      chmodSync(socketPath, 0o666);
      expect(await connectAsNobody(socketPath)).toBe('connected');
    } finally {
      chmodSync(socketPath, 0o600);
      chmodSync(path.dirname(socketPath), 0o700);
      chmodSync(configDir, 0o700);
    }
  }, 120_000);

  it('the CLI does not talk to a socket in a folder others may write to', async () => {
    const socketPath = await svc!.listening;
    chmodSync(path.dirname(socketPath), 0o777);
    try {
      const status = await runCli(['service', 'status'], { env });
      expect(status.code).toBe(1);
      expect(status.stdout).toContain('no DeskPilot service is running');
      expect(status.stdout).not.toContain('DeskPilot service 0.');
    } finally {
      chmodSync(path.dirname(socketPath), 0o700);
    }
    expect((await runCli(['service', 'status'], { env })).code).toBe(0);
  }, 120_000);
});
