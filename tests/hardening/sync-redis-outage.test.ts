import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable, startRedis, startSyncServerProc, type SyncServerProc } from '../sync/sync-rig';
import { waitFor } from '../support/wait-for';
import { changeFlows, docClients } from './sync-clients';

// D3: two `deskpilot sync-server` processes sharing a document through a real redis-server. Redis
// stops; both servers must outlive the point where they used to die (a PUBLISH queued during the
// outage failed after 20 reconnect attempts and took the process down), keep serving, and, once
// Redis is back on the same socket, carry changes between them again — the ones made during the
// outage too.

/** Reconnect attempts a server logged so far. */
const attempts = (s: SyncServerProc) => Math.max(0, ...[...s.output().matchAll(/reconnect attempt (\d+)/g)].map((m) => Number(m[1])));

describe.skipIf(!redisAvailable() && process.env.DESKPILOT_REQUIRE_DESKTOP !== '1')('sync servers through a Redis outage (D3)', () => {
  let dir: string;
  const clients = docClients();

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-redis-outage-'));
  });
  afterAll(() => {
    clients.closeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('both servers live through the outage and changes flow between them once Redis is back', async () => {
    let redis = await startRedis(dir);
    const file = path.join(dir, 'sync.sqlite');
    const one = await startSyncServerProc({ data: file, redis: redis.url });
    const two = await startSyncServerProc({ data: file, redis: redis.url });
    try {
      const a = await clients.connect(one.url);
      const b = await clients.connect(two.url);
      await changeFlows(a, b, 'before');

      await redis.stop();
      // Changes while Redis is down: work each server would hand to Redis.
      a.ydoc.getMap('h4-probe').set('during', 'made during the outage');
      b.ydoc.getMap('h4-probe').set('during-b', 'made on two during the outage');
      // Past the 20 attempts after which a queued command used to fail and kill the process.
      await waitFor('25 reconnect attempts logged by each server, or one of them gone', () => one.child.exitCode !== null || two.child.exitCode !== null || (attempts(one) >= 25 && attempts(two) >= 25));
      expect(one.child.exitCode, one.output()).toBeNull();
      expect(two.child.exitCode, two.output()).toBeNull();
      // Each still serves its own devices: a new client on server one syncs and sees the change made there.
      const late = await clients.connect(one.url);
      await waitFor('the late client to see the change made on server one', () => late.ydoc.getMap('h4-probe').get('during') === 'made during the outage');

      redis = await startRedis(dir);
      await waitFor('both servers back on Redis', () => one.output().includes('redis connection back') && two.output().includes('redis connection back'));
      // What was changed during the outage reaches the other side without a further change…
      await waitFor('the outage change to reach server two', () => b.ydoc.getMap('h4-probe').get('during') === 'made during the outage');
      await waitFor('the outage change to reach server one', () => a.ydoc.getMap('h4-probe').get('during-b') === 'made on two during the outage');
      // …and new changes flow both ways.
      await changeFlows(a, b, 'after');
      await changeFlows(b, a, 'after-back');
    } finally {
      clients.closeAll();
      await one.stop();
      await two.stop();
      await redis.stop();
    }
  });
});
