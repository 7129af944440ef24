// The other 18 of the sync bench's 20 devices, run in a child process of their own so that they
// do not share the measuring process's event loop (each would be a computer of its own in use).
// Each is a real device on the real sync server: its own keys and trust list (from the parent,
// all paired with one another), its own connection, and a real DeviceWorker that puts its device
// row, publishes a sealed desk of DESK_TABS tabs and looks at every row that arrives, verifying
// it, while the parent's commands run. Only the desk behind each worker is a fake: it has a
// fixed snapshot and is never asked to run anything (the commands are all for B).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeviceWorker } from '../src/app/device-worker';
import type { ContextSnapshot, TabInfo } from '../src/protocol/context';
import { loadKeys, type StoredDeviceKeys } from '../src/platform/sync/device-keys';
import { connectSync, type SyncConnection } from '../src/platform/sync/sync-connection';
import { newDeviceKey } from '../src/platform/sync/sync-secret';
import { openTakenJournal } from '../src/platform/sync/taken-journal';
import type { TrustFile } from '../src/platform/sync/trust-store';

export const DESK_TABS = 50;

/** What the parent sends: where the server is, the user's secrets, each device's keys and trust list. */
export interface ExtraDevicesConfig {
  url: string;
  userId: string;
  enrollKey: string;
  devices: Array<{ id: string; name: string; keys: StoredDeviceKeys; trust: TrustFile }>;
}

function fakeDesk(name: string): ContextSnapshot {
  const ok = { ok: true, message: 'ok' };
  const tabs: TabInfo[] = Array.from({ length: DESK_TABS }, (_, k) => ({
    index: k + 1,
    title: `${name}: page ${k + 1} — a site`,
    url: `https://site${k % 20}.example.org/${name.replace(/\W/g, '')}/${k + 1}`,
    domain: `site${k % 20}.example.org`,
    content_summary: null,
    is_active: k === 0,
    window_index: 1,
    local_index: k + 1,
    target_id: `${String(k).padStart(8, '0')}CD34EF56AB12CD34EF56AB12`,
  }));
  return { taken_at: new Date().toISOString(), monitors: [], running_apps: [], installed_apps: [], tabs, presets: [], sources: { windows: ok, chrome: ok, presets: ok } };
}

async function main(config: ExtraDevicesConfig): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'deskpilot-syncbench-extra-'));
  const links: SyncConnection[] = [];
  const workers: DeviceWorker[] = [];
  const stop = async () => {
    for (const w of workers) await w.stop();
    for (const l of links) l.close();
    await rm(dir, { recursive: true, force: true });
  };
  for (const d of config.devices) {
    const keys = loadKeys(d.keys);
    const link = connectSync({
      url: config.url,
      token: { userId: config.userId, deviceId: d.id, deviceKey: newDeviceKey(), enrollKey: config.enrollKey },
      keyring: { self: d.id, keys, trust: () => d.trust },
    });
    links.push(link);
    await link.ready;
    const snap = fakeDesk(d.name);
    const desk = {
      snapshot: async () => snap,
      run: async () => Promise.reject(new Error(`bench: ${d.name} runs nothing`)),
      prepare: async () => Promise.reject(new Error(`bench: ${d.name} prepares nothing`)),
    };
    const journal = await openTakenJournal(path.join(dir, d.id), 600_000);
    const worker = new DeviceWorker({ desk, link, journal, deviceId: d.id, name: d.name, platform: process.platform, version: 'bench' });
    worker.start();
    workers.push(worker);
    await worker.publishSoon();
  }
  return stop;
}

// Run as a child (process.send exists): one config message in, "ready" out, "stop" ends it.
if (process.send) {
  let stop: (() => Promise<void>) | null = null;
  process.on('message', (m: { config?: ExtraDevicesConfig; stop?: true }) => {
    if (m.config) {
      main(m.config).then(
        (s) => ((stop = s), process.send!({ ready: true })),
        (e: unknown) => process.send!({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
      );
    }
    if (m.stop) void (stop ? stop() : Promise.resolve()).finally(() => process.exit(0));
  });
  // The parent gone (a crashed bench): leave too.
  process.on('disconnect', () => void (stop ? stop() : Promise.resolve()).finally(() => process.exit(0)));
}
