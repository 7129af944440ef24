import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { RemoteDevices } from '../../src/app/sync/remote-devices';
import { sendCommand } from '../../src/app/sync/send-command';
import type { SyncConnection } from '../../src/platform/sync/sync-connection';
import { describeDesktop } from '../support/describe-desktop';
import type { Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { Device, observe, pairThroughCli, redisAvailable, startHangingPage, startRedis, startSyncServerProc, startTwoDevices, stopTwoDevices, type SyncServerProc } from './sync-rig';

// Two DeskPilots on two separate desktops (two Xvfb displays, two Chromiums, two config dirs),
// one real `deskpilot sync-server`, real warm services running the device worker. Effects are
// checked in each Chromium directly, and the shared document through an observer device.

const A = 'work laptop';
const B = 'home desktop';

describeDesktop('the cross-device command queue', () => {
  let deskA: Desktop;
  let deskB: Desktop;
  let rawA: RawCdp;
  let rawB: RawCdp;
  let server: SyncServerProc;
  let dataDir: string;
  let a: Device;
  let b: Device;
  let obs: SyncConnection;
  let second: SyncServerProc | undefined;

  beforeAll(async () => {
    ({ deskA, deskB, rawA, rawB, server, dataDir, a, b, obs } = await startTwoDevices(A, B));
  }, 300_000);

  afterEach(async () => {
    await Promise.all([a?.stopService(), b?.stopService()]);
  });

  afterAll(async () => {
    await stopTwoDevices({ deskA, deskB, rawA, rawB, server, dataDir, a, b, obs });
  });

  const idOf = (d: Device) => obs.doc.devices().find((r) => r.name === d.name)!.id;
  /** The device's worker is connected and has published a desk with this tab. */
  const publishedWith = (d: Device, url: string) =>
    waitFor(`${d.name} to publish a desk with ${url}`, () => obs.doc.readSnapshot(idOf(d)).snapshot?.tabs.some((t) => t.url === url) ?? false);
  const online = (d: Device) => waitFor(`${d.name} to be online`, () => obs.onlineDevices().has(idOf(d)));
  const urls = async (raw: RawCdp) => (await raw.pages()).map((p) => p.url);

  it('a command from A runs on B (not on A), and A gets B\'s report', async () => {
    await b.startService();
    await online(b);
    const url = deskB.pages.url('page', { title: 'Opened from A' });
    const r = await a.cli(['exec', '--device', B, JSON.stringify({ type: 'open_url', url })]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.status).toBe('done');
    expect(r.json.device.name).toBe(B);
    expect(r.json.results[0].ok).toBe(true);
    await rawB.waitFor(async () => (await urls(rawB)).includes(url), 'the tab on B');
    expect(await urls(rawA)).not.toContain(url);
    // Answered rows are removed once read.
    await waitFor('the answered row to be deleted', () => obs.doc.rowIds().length === 0);
  });

  it('run "… on <device>" plans against B\'s published desk and closes B\'s tab after the sender\'s yes', async () => {
    const url = deskB.pages.url('page', { title: 'Kitten Gallery' });
    await rawB.open(url);
    // With A's own service running too: the call may be run by it for a thin client.
    await Promise.all([a.startService(), b.startService()]);
    await publishedWith(b, url);
    const asked = await a.cli(['run', '--planner', 'local', `close the kitten gallery tab on the ${B}`]);
    // No terminal and no --yes: nothing is sent.
    expect(asked.code, asked.stderr).toBe(3);
    expect(asked.stderr).toContain('Kitten Gallery');
    expect(obs.doc.rowIds()).toEqual([]);
    expect(await urls(rawB)).toContain(url);

    // B's user lets A close things there without asking (the sender's yes alone is not enough).
    const allowed = await b.cli(['devices', 'allow', A, '--without-asking']);
    expect(allowed.code, allowed.stderr).toBe(0);
    try {
      const done = await a.cli(['run', '--planner', 'local', '--yes', `close the kitten gallery tab on the ${B}`]);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain(`On "${B}"`);
      await rawB.waitFor(async () => !(await urls(rawB)).includes(url), 'the tab on B to close');
    } finally {
      expect((await b.cli(['devices', 'allow', A, '--ask'])).code).toBe(0);
    }
  });

  it('A aborts while B is offline: the row is deleted and B never runs it', async () => {
    const url = deskB.pages.url('page', { title: 'Withdrawn' });
    const sender = a.spawnCli(['exec', '--device', B, JSON.stringify({ type: 'open_url', url })]);
    await waitFor('the row to be written', () => obs.doc.rowIds().length === 1);
    sender.kill('SIGINT');
    expect(await sender.exited).toBe(3);
    expect(sender.output()).toContain('withdrawn');
    await waitFor('the row to be deleted', () => obs.doc.rowIds().length === 0);
    await b.startService();
    await online(b);
    await waitFor('B to publish after coming back', () => obs.doc.readSnapshot(idOf(b)).snapshot !== null);
    expect(await urls(rawB)).not.toContain(url);
    expect(b.service!.output()).not.toContain('running command');
  });

  it('B offline: the command expires after the TTL, and B does not run it when it comes back', async () => {
    const ttl = { DESKPILOT_SYNC_TTL_MS: '3000' };
    const url = deskB.pages.url('page', { title: 'Too Late' });
    const r = await a.cli(['exec', '--device', B, JSON.stringify({ type: 'open_url', url })], { env: ttl });
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.status).toBe('unavailable');
    expect(r.stderr).toContain('may be offline');
    // The row stays for B to find: B deletes it unrun when it wakes.
    expect(obs.doc.rowIds()).toHaveLength(1);
    await b.startService(ttl);
    await waitFor('B to delete the expired row', () => obs.doc.rowIds().length === 0);
    expect(b.service!.output()).toContain('expired before it reached this device; not run');
    await waitFor('B to publish', () => obs.doc.readSnapshot(idOf(b)).snapshot !== null);
    expect(await urls(rawB)).not.toContain(url);
  });

  it('B killed while running a command runs it once: back again, it answers "interrupted" instead of running it twice', async () => {
    const page = await startHangingPage();
    try {
      await b.startService();
      await online(b);
      const sender = a.spawnCli(['exec', '--device', B, JSON.stringify({ type: 'open_url', url: page.url })]);
      await waitFor('B to start opening the page', () => page.hits() === 1);
      b.service!.kill('SIGKILL');
      await b.service!.exited;
      await b.startService();
      expect(await sender.exited).toBe(1);
      expect(sender.output()).toContain('stopped while running this command, so it was not run again');
      expect(page.hits()).toBe(1);
      await waitFor('the answered row to be deleted', () => obs.doc.rowIds().length === 0);
    } finally {
      await page.stop();
    }
  });

  it('the sync keys reach neither the history nor the shared document', async () => {
    const { readFileSync, existsSync } = await import('node:fs');
    const doc = JSON.stringify(obs.ydoc.toJSON());
    for (const d of [a, b]) {
      const read = (f: string) => JSON.parse(readFileSync(path.join(d.configDir, f), 'utf8'));
      const secrets = [read('sync-credential.json').device_key, read('sync-device-keys.json').sign_key, read('sync-device-keys.json').box_key, ...read('sync-trust.json').keys.map((k: { key: string }) => k.key)];
      const history = path.join(d.configDir, 'history.jsonl');
      for (const secret of secrets) {
        if (existsSync(history)) expect(readFileSync(history, 'utf8')).not.toContain(secret);
        expect(doc).not.toContain(secret);
      }
    }
  });

  it('a removed device is refused by the server, and nothing it sent runs (B learns the removal from A\'s signed notice)', async () => {
    const c = new Device('spare laptop', deskA, server.url);
    try {
      await pairThroughCli(a, c);
      // C's own service is running: it learns of its removal from A's signed notice and stops.
      await c.startService();
      await waitFor('C to be online', () => obs.onlineDevices().has(idOf(c)));
      // A command from C waits for B (offline); then C is removed before B comes back.
      const url = deskB.pages.url('page', { title: 'From The Removed' });
      const sender = c.spawnCli(['exec', '--device', B, JSON.stringify({ type: 'open_url', url })]);
      await waitFor('the row from C', () => obs.doc.rowIds().length === 1);
      const removed = await a.cli(['devices', 'remove', 'spare laptop']);
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.stdout).toContain('the document key is new');
      // C stops either on A's notice or, when the server cut its connection before the notice
      // reached it (the server closes a removed device's connections at once), on the refusal.
      await waitFor('C\'s worker to stop', () => /another of your devices removed this one; the worker stops|the server refused this device \(this device was removed\)/.test(c.service!.output()));
      await b.startService();
      await waitFor('B to drop the row from the removed device', () => /dropped command .*(removed|retired|does not trust)/.test(b.service!.output()));
      expect(b.service!.output()).toContain('"work laptop" removed "spare laptop"');
      sender.kill('SIGKILL');
      expect(await urls(rawB)).not.toContain(url);
      const refused = await c.cli(['devices']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('this device was removed');
      const listed = await a.cli(['devices', '--json']);
      expect(listed.json.devices.find((d: { device: { name: string } }) => d.device.name === 'spare laptop').device.removed_at).toBeTypeOf('number');
      // B re-published its desk under the new key, which A reads.
      await waitFor('B to publish under the new key', () => obs.doc.readSnapshot(idOf(b)).snapshot !== null);
    } finally {
      await c.stopService();
      c.dispose();
    }
  });

  it('a wrong device key is refused; another first device opens a separate, empty space', async () => {
    const { readFileSync, writeFileSync } = await import('node:fs');
    const file = path.join(b.configDir, 'sync-credential.json');
    const good = readFileSync(file, 'utf8');
    try {
      const cred = JSON.parse(good);
      writeFileSync(file, JSON.stringify({ ...cred, device_key: 'x'.repeat(43) }), { mode: 0o600 });
      const r = await b.cli(['devices']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('refused this device: wrong device key');
    } finally {
      writeFileSync(file, good, { mode: 0o600 });
    }
    const stranger = new Device('stranger', deskA, server.url);
    try {
      const first = await stranger.cli(['devices', 'pair']);
      expect(first.code, first.stderr).toBe(0);
      const list = await stranger.cli(['devices', '--json']);
      expect(list.json.devices.map((d: { device: { name: string } }) => d.device.name)).toEqual(['stranger']);
    } finally {
      stranger.dispose();
    }
  });

  it('only the named device runs a row: a batch prepared for A and sent to B is refused by B, A ignores it', async () => {
    await Promise.all([a.startService(), b.startService()]);
    await Promise.all([online(a), online(b)]);
    // The observer is A (its keys): rows it writes are A's.
    const session = { doc: obs.doc, deviceId: idOf(a), onlineDevices: () => obs.onlineDevices(), flushed: (ms?: number) => obs.flushed(ms) };
    const remote = new RemoteDevices(session);
    await waitFor('A to publish under the current key', () => obs.doc.readSnapshot(idOf(a)).snapshot !== null);
    const url = deskA.pages.url('page', { title: 'Prepared For A' });
    const forA = await remote.prepare(obs.doc.device(idOf(a))!, { type: 'open_url', url });
    expect(forA.ok).toBe(true);
    const batch = forA.ok ? forA.batch : null;
    const wrong = await sendCommand<'run'>(obs.doc, { action: 'run', deviceId: idOf(b), from: idOf(a), batch: batch! });
    expect(wrong.status).toBe('invalid');
    expect(wrong.errors[0]!.message).toMatch(/runs only where it was prepared|prepared for device .*, not this one/);
    expect(a.service!.output()).not.toContain('running command');
    expect([...(await urls(rawA)), ...(await urls(rawB))]).not.toContain(url);
  });

  it('the server restarted: devices and published desks come back from its SQLite file', async () => {
    const url = deskB.pages.url('page', { title: 'Survives Restarts' });
    await rawB.open(url);
    await b.startService();
    await publishedWith(b, url);
    await b.stopService();
    obs.close();
    await server.stop();
    server = await startSyncServerProc({ data: path.join(dataDir, 'sync.sqlite'), port: server.port });
    // A fresh client, so nothing comes from a client's memory: only the server's file.
    obs = await observe(server.url, a);
    expect(obs.doc.devices().map((d) => d.name)).toEqual(expect.arrayContaining([A, B]));
    expect(obs.doc.readSnapshot(idOf(b)).snapshot?.tabs.some((t) => t.url === url)).toBe(true);
    // And commands flow again.
    await b.startService();
    await online(b);
    const r = await a.cli(['exec', '--device', B, JSON.stringify({ type: 'list_tabs' })]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(r.json.results[0].data)).toContain('Survives Restarts');
  });

  it.skipIf(!redisAvailable() && process.env.DESKPILOT_REQUIRE_DESKTOP !== '1')(
    'two server processes sharing the load through Redis: A on one, B on the other, commands still flow',
    async () => {
      const redis = await startRedis(dataDir);
      const file = path.join(dataDir, 'sync.sqlite');
      try {
        obs.close();
        await server.stop();
        const [one, two] = [await startSyncServerProc({ data: file, redis: redis.url }), await startSyncServerProc({ data: file, redis: redis.url })];
        server = one;
        second = two;
        a.setSyncUrl(one.url);
        b.setSyncUrl(two.url);
        obs = await observe(one.url, a);
        await b.startService();
        await online(b);
        const url = deskB.pages.url('page', { title: 'Across Servers' });
        const r = await a.cli(['exec', '--device', B, JSON.stringify({ type: 'open_url', url })]);
        expect(r.code, r.stderr).toBe(0);
        await rawB.waitFor(async () => (await urls(rawB)).includes(url), 'the tab on B');
        // B's desk, published through server two, is read by A's side through server one.
        await publishedWith(b, url);
      } finally {
        await b.stopService();
        await second?.stop();
        await redis.stop();
      }
    },
  );
});
