import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable, startRedis, startSyncServerProc } from '../sync/sync-rig';
import { waitFor } from '../support/wait-for';
import { docClients } from './sync-clients';

// D11/D3: `deskpilot sync-server` must stop on SIGTERM while devices are connected (under systemd
// every stop otherwise ends in SIGKILL), and also while its Redis is down. Real server processes,
// real clients; the test waits on the exit event (the suite's timeout only catches a hang) and
// checks that the clients' connections were closed.

describe('deskpilot sync-server stops on SIGTERM', () => {
  let dir: string;
  const clients = docClients();

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-sync-stop-'));
  });
  afterEach(() => clients.closeAll());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('with a device connected: it closes the connection and exits 0', async () => {
    const server = await startSyncServerProc({ data: path.join(dir, 'plain.sqlite') });
    try {
      const client = await clients.connect(server.url);
      const codes: number[] = [];
      client.provider.configuration.websocketProvider.on('close', ({ event }: { event: { code: number } }) => codes.push(event.code));
      server.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('sync server stopped');
      // The server closed the socket itself ("going away"), rather than the client timing out (1005/1006).
      await waitFor('the client to see its connection closed', () => codes.length > 0);
      expect(codes[0]).toBe(1001);
    } finally {
      await server.stop();
    }
  });

  it.skipIf(!redisAvailable() && process.env.DESKPILOT_REQUIRE_DESKTOP !== '1')('with Redis down and a device connected: it exits 0', async () => {
    const redis = await startRedis(dir);
    const server = await startSyncServerProc({ data: path.join(dir, 'redis.sqlite'), redis: redis.url });
    try {
      const client = await clients.connect(server.url);
      await redis.stop();
      // A change while Redis is down, so the server has work for Redis it cannot do.
      client.ydoc.getMap('h4-probe').set('while-down', 1);
      await waitFor('the server to notice Redis is gone', () => server.output().includes('reconnect attempt 3'));
      server.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await server.stop();
      await redis.stop();
    }
  });
});
