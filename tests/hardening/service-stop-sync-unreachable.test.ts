import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnService } from '../service/service-process';
import { runCli } from '../support/cli';
import { startSyncServerProc } from '../sync/sync-rig';
import { waitFor } from '../support/wait-for';

// D11: a `deskpilot service` whose sync server cannot be reached must stop cleanly on SIGTERM.
// The device is paired for real (a real sync server and `devices pair`); then its sync.url points
// at a server that accepts TCP and never answers the websocket handshake, so the service's
// connection is still being established when it stops. Closing it then used to raise an 'error'
// event nobody listened to ("WebSocket was closed before the connection was established"): the
// service crashed instead of stopping.

/** A TCP server that accepts connections and never answers: a sync server that hangs. */
async function startSilentServer(): Promise<{ port: number; accepted(): number; stop(): Promise<void> }> {
  const held = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((s) => {
    accepted++;
    held.add(s);
    s.on('error', () => undefined);
    s.on('close', () => held.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => accepted,
    stop: async () => {
      held.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a service whose sync server does not answer stops on SIGTERM (D11)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const writeConfig = (url: string) => writeFileSync(path.join(dir, 'config', 'config.json'), JSON.stringify({ sync: { url, device_name: 'hardening' } }));

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-svc-unreach-'));
    mkdirSync(path.join(dir, 'config'));
    env = { ...process.env, DESKPILOT_CONFIG_DIR: path.join(dir, 'config') };
    delete env.DISPLAY;
    delete env.XDG_RUNTIME_DIR;
    const sync = await startSyncServerProc({ data: path.join(dir, 'sync.sqlite') });
    try {
      writeConfig(sync.url);
      const paired = await runCli(['devices', 'pair'], { env });
      expect(paired.code, paired.stderr).toBe(0);
    } finally {
      await sync.stop();
    }
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('with its connection still being established: it exits 0 and says it stopped', async () => {
    const silent = await startSilentServer();
    try {
      writeConfig(`ws://127.0.0.1:${silent.port}`);
      const svc = spawnService(env);
      await svc.listening;
      await waitFor('the service to try the sync server', () => silent.accepted() > 0);
      svc.kill('SIGTERM');
      expect(await svc.exited, svc.output()).toBe(0);
      expect(svc.output()).toContain('service stopped');
      expect(svc.output()).not.toContain('Unhandled');
    } finally {
      await silent.stop();
    }
  });
});
