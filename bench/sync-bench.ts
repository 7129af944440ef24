// Sync bench: the cross-device queue on loopback. A command's round trip A → sync server → B →
// effect in B's real Chromium → report back to A (switch_tab, alternating between two tabs),
// and what publishing a desk of 300 tabs costs the publisher when one tab changes (CPU time
// and the size of the Yjs update sent). Figures only; targets are reported as met or not.
// The round trip is measured three times in one run: with A and B alone, then with 18 more
// devices connected to the same server (sync-extra-devices.ts), each paired, publishing its
// sealed desk and looking at every row while the commands run, then with A and B alone again.
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as Y from 'yjs';
import { DeviceWorker } from '../src/app/device-worker';
import { LocalDesk } from '../src/app/local-desk';
import { RemoteDevices } from '../src/app/sync/remote-devices';
import { compose } from '../src/compose/compose';
import type { ContextSnapshot, TabInfo } from '../src/protocol/context';
import { connectSync } from '../src/platform/sync/sync-connection';
import { SyncDoc } from '../src/platform/sync/sync-doc';
import { storedKeys } from '../src/platform/sync/device-keys';
import { newDeviceKey, newEnrollKey, userIdOf } from '../src/platform/sync/sync-secret';
import { testUser } from '../tests/sync/keyrings';
import { startSyncServer } from '../src/platform/sync/sync-server';
import { openTakenJournal } from '../src/platform/sync/taken-journal';
import { startDesktop } from '../tests/support/desktop';
import { cleanUpOnInterrupt, fmtMs, fmtRatio, fmtStats, formatTable, machineNote, sleep, stats, waitForQuietCpu, type Stats } from './stats';
import type { ExtraDevicesConfig } from './sync-extra-devices';
import { TabFixture } from './tab-fixture';

const ROUND_TRIPS = 100;
/** Devices connected in the second measurement: A, B and 18 more (sync-extra-devices.ts). */
const DEVICES = 20;
const WARMUP = 5;
const PUBLISH_TABS = 300;
const PUBLISH_CHANGES = 200;
const TARGET_P50_MS = 50;
const TARGET_PUBLISH_CPU_MS = 5;
const TARGET_UPDATE_BYTES = 2048;

export async function run(): Promise<void> {
  console.log(`Sync bench: ${ROUND_TRIPS} command round trips on loopback; publishing a desk of ${PUBLISH_TABS} tabs`);
  console.log(machineNote());
  publishCost();
  await roundTrips();
}

function tab(i: number, over: Partial<TabInfo> = {}): TabInfo {
  const w = 1 + Math.floor((i - 1) / 100);
  return {
    index: i,
    title: `Some page title number ${i} — a site`,
    url: `https://site${i % 40}.example.org/articles/${i}?ref=bench`,
    domain: `site${i % 40}.example.org`,
    content_summary: null,
    is_active: (i - 1) % 100 === 0,
    window_index: w,
    local_index: ((i - 1) % 100) + 1,
    target_id: `${String(i).padStart(8, '0')}AB12CD34EF56AB12CD34EF56`,
    ...over,
  };
}

function desk(tabs: TabInfo[]): ContextSnapshot {
  const ok = { ok: true, message: 'ok' };
  return {
    taken_at: new Date().toISOString(),
    monitors: [],
    running_apps: [],
    installed_apps: Array.from({ length: 80 }, (_, i) => ({ name: `App ${i}` })),
    tabs,
    presets: ['code space'],
    sources: { windows: ok, chrome: ok, presets: ok },
  };
}

/** CPU time of one publish after a single tab changed (the snapshot is already taken), and the update it sends. */
function publishCost(): void {
  const doc = new Y.Doc();
  const sync = new SyncDoc(doc, testUser(['bench'], ['bench-device'])[0]!.ring);
  let sent = 0;
  doc.on('update', (u: Uint8Array) => (sent = u.byteLength));
  const tabs = Array.from({ length: PUBLISH_TABS }, (_, i) => tab(i + 1));
  sync.publishSnapshot('bench-device', desk(tabs));
  const initial = sent;
  const cpu: number[] = [];
  const sizes: number[] = [];
  for (let n = 0; n < PUBLISH_CHANGES; n++) {
    const i = (n * 37) % PUBLISH_TABS;
    tabs[i] = { ...tabs[i]!, title: `Changed title ${n}`, url: `https://news.example.org/story/${n}` };
    const snap = desk(tabs);
    sent = 0;
    const before = process.cpuUsage();
    sync.publishSnapshot('bench-device', snap);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    sizes.push(sent);
  }
  const c = stats(cpu);
  const s = stats(sizes);
  console.log(
    '\n' +
      formatTable([
        ['publish, 300 tabs', 'p50 (p95)', 'target', 'met'],
        ['first publish: update size', `${(initial / 1024).toFixed(1)} KiB`, '—', '—'],
        ['one tab changed: CPU per publish', fmtStats(c), `< ${TARGET_PUBLISH_CPU_MS} ms`, c.p50 < TARGET_PUBLISH_CPU_MS ? 'yes' : 'no'],
        ['one tab changed: update size', `${s.p50} B (${s.p95} B)`, `< ${TARGET_UPDATE_BYTES} B`, s.p95 < TARGET_UPDATE_BYTES ? 'yes' : 'no'],
      ]),
  );
}

/** Polls until `ok` (a minute at most): the bench's waits are on conditions, not fixed times. */
async function waitUntil(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function roundTrips(): Promise<void> {
  const desktop = await startDesktop({ chrome: true });
  const dir = await mkdtemp(path.join(tmpdir(), 'deskpilot-syncbench-'));
  const server = await startSyncServer({ port: 0, host: '127.0.0.1', dataFile: path.join(dir, 'sync.sqlite') });
  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c();
    await server.close();
    await desktop.stop();
    await rm(dir, { recursive: true, force: true });
  };
  const uninstall = cleanUpOnInterrupt(cleanup);
  try {
    const fixture = await TabFixture.connect(desktop.chrome!.browserWsUrl);
    cleanups.push(() => fixture.dispose());
    const first = await fixture.openWindow({ url: desktop.pages.url('page', { title: 'Bench One' }), title: 'Bench One' });
    await fixture.openIn(first, [{ url: desktop.pages.url('page', { title: 'Bench Two' }), title: 'Bench Two' }]);

    // B: an engine on the test desktop, and its device worker.
    process.env.DISPLAY = desktop.display;
    const wired = await compose({ configDir: path.join(dir, 'b'), chromeUrl: desktop.chrome!.browserWsUrl });
    const bDesk = new LocalDesk(wired);
    cleanups.push(() => bDesk.close());
    const enrollKey = newEnrollKey();
    const userId = userIdOf(enrollKey);
    const token = (deviceId: string) => ({ userId, deviceId, deviceKey: newDeviceKey(), enrollKey });
    // All 20 devices' keys and trust lists, in memory: rows and desks are signed and sealed as in use.
    const extraIds = Array.from({ length: DEVICES - 2 }, (_, i) => `bench-device-${String(i + 3).padStart(2, '0')}`);
    const user = testUser(['A', 'B', ...extraIds.map((_, i) => `Device ${i + 3}`)], ['bench-sender-a', wired.engine.deviceId, ...extraIds]);
    const [ka, kb] = user;
    const b = connectSync({ url: server.url, token: token(wired.engine.deviceId), keyring: kb!.ring });
    const a = connectSync({ url: server.url, token: token('bench-sender-a'), keyring: ka!.ring });
    cleanups.push(() => (a.close(), b.close()));
    await Promise.all([a.ready, b.ready]);
    a.doc.pairDevice({ v: 1, id: 'bench-sender-a', name: 'A', platform: process.platform, version: 'bench', last_seen: Date.now() });
    const worker = new DeviceWorker({ desk: bDesk, link: b, journal: await openTakenJournal(path.join(dir, 'b'), 600_000), deviceId: wired.engine.deviceId, name: 'B', platform: process.platform, version: 'bench' });
    worker.start();
    cleanups.push(() => worker.stop());
    const remote = new RemoteDevices({ doc: a.doc, deviceId: 'bench-sender-a', onlineDevices: () => a.onlineDevices(), flushed: (ms) => a.flushed(ms) });
    await waitUntil('B\'s desk at A', () => !!remote.list().find((v) => v.device.name === 'B')?.snapshot?.tabs.length);
    const target = remote.list().find((v) => v.device.name === 'B')!;
    const snap = target.snapshot!;
    const [one, two] = [snap.tabs.findIndex((t) => t.title === 'Bench One') + 1, snap.tabs.findIndex((t) => t.title === 'Bench Two') + 1];
    const batches = await Promise.all(
      [one, two].map(async (i) => {
        const p = await remote.prepare(target.device, { type: 'switch_tab', tab_index: i }, snap);
        if (!p.ok) throw new Error(`switch_tab ${i} did not prepare: ${JSON.stringify(p.report.errors)}`);
        return p.batch;
      }),
    );
    const measure = async (label: string) => {
      await waitForQuietCpu();
      const times: number[] = [];
      for (let n = 0; n < WARMUP + ROUND_TRIPS; n++) {
        const batch = { ...batches[n % 2]!, id: `bench-${label}-${n}-${batches[n % 2]!.id}`.slice(0, 200) };
        const t0 = performance.now();
        const report = await remote.run(target.device, batch);
        const ms = performance.now() - t0;
        if (report.status !== 'done') throw new Error(`round trip ${n} (${label}): ${report.status} ${JSON.stringify(report.errors)}`);
        if (n >= WARMUP) times.push(ms);
      }
      return stats(times);
    };
    const pair = await measure('2');

    // 18 more devices, each its own connection and worker in a child process, publishing a sealed
    // desk of DESK_TABS tabs; measured once A has read and verified every one of their desks.
    const extra = fork(path.join(__dirname, 'sync-extra-devices.ts'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const extraExited = new Promise<void>((resolve) => extra.once('exit', () => resolve()));
    const stopExtra = async () => {
      if (extra.exitCode === null && extra.signalCode === null) {
        extra.send({ stop: true });
        const t = setTimeout(() => extra.kill('SIGKILL'), 10_000);
        await extraExited;
        clearTimeout(t);
      }
    };
    cleanups.push(stopExtra);
    const config: ExtraDevicesConfig = {
      url: server.url,
      userId,
      enrollKey,
      devices: user.slice(2).map((d) => ({ id: d.id, name: d.name, keys: storedKeys(d.id, d.keys), trust: d.store.get() })),
    };
    await new Promise<void>((resolve, reject) => {
      extra.once('message', (m: { ready?: true; error?: string }) => (m.ready ? resolve() : reject(new Error(`the extra devices failed: ${m.error}`))));
      extra.once('exit', (code) => reject(new Error(`the extra devices exited (${code})`)));
      extra.send({ config });
    });
    const withDesk = () => remote.list().filter((v) => (v.snapshot?.tabs.length ?? 0) > 0);
    await waitUntil(`${DEVICES - 1} desks at A`, () => withDesk().length >= DEVICES - 1 && a.onlineDevices().size >= DEVICES - 1);
    const twenty = await measure(String(DEVICES));
    const extraTabs = withDesk().filter((v) => v.device.name !== 'B').map((v) => v.snapshot!.tabs.length);
    // And 2 again once the 18 have gone: a shared machine's load drifts, and 2 → 20 → 2 shows by how much.
    await stopExtra();
    await waitUntil('the 18 devices offline at A', () => a.onlineDevices().size <= 1);
    const pairAgain = await measure('2-again');

    // The same commands run on B directly: what the queue adds is the difference.
    const direct: number[] = [];
    for (let n = 0; n < WARMUP + ROUND_TRIPS; n++) {
      const batch = { ...batches[n % 2]!, id: `direct-${n}-${batches[n % 2]!.id}`.slice(0, 200) };
      const t0 = performance.now();
      await bDesk.run(batch);
      if (n >= WARMUP) direct.push(performance.now() - t0);
    }
    const d = stats(direct);
    const row = (label: string, s: Stats) => [`${label}: ${ROUND_TRIPS} commands (min ${fmtMs(s.min)}, max ${fmtMs(s.max)})`, fmtStats(s), `p50 < ${TARGET_P50_MS} ms`, s.p50 < TARGET_P50_MS ? 'yes' : 'no'];
    console.log(
      '\n' +
        formatTable([
          ['round trip A → server → B → switch_tab → report → A', 'p50 (p95)', 'target', 'met'],
          row('2 devices connected (first)', pair),
          row(`${DEVICES} devices connected`, twenty),
          row('2 devices connected (again, after)', pairAgain),
          [`${DEVICES} against 2 devices (first; again)`, `${fmtRatio(twenty.p50 / pair.p50)} (${fmtRatio(twenty.p95 / pair.p95)}); ${fmtRatio(twenty.p50 / pairAgain.p50)} (${fmtRatio(twenty.p95 / pairAgain.p95)})`, '—', '—'],
          ['the same switch_tab run on B directly (no queue)', fmtStats(d), '—', '—'],
        ]),
    );
    console.log(`${DEVICES} devices: A, B and ${extraTabs.length} more (a worker each, in one other process), each publishing a sealed desk of ${extraTabs[0] ?? 0} tabs, all connected and online at A during the run`);
    console.log(machineNote());
  } finally {
    uninstall();
    await cleanup();
  }
}
