import { DeviceWorker } from '../app/device-worker';
import type { Desk } from '../app/desk';
import { RemoteDevices } from '../app/sync/remote-devices';
import { DeskPilotError, errorMessage } from '../engine/errors';
import { ROW_MAX_AGE_TTLS } from '../protocol/sync';
import type { Config } from '../platform/config/load-config';
import type { SyncConfig } from '../platform/config/sync-config';
import { PACKAGE_VERSION } from '../platform/package-version';
import { credentialFile, type CredentialStore, type SyncCredential } from '../platform/sync/credential-file';
import { connectSync, type SyncConnection } from '../platform/sync/sync-connection';
import { openTakenJournal } from '../platform/sync/taken-journal';
import { loadDeviceId } from '../platform/storage/device-id';

// Wiring of the cross-device queue: the device worker inside the host that owns the desk, and
// short sync sessions for the CLI's `devices`, `exec --device`, `context --all-devices` and
// `run "… on <device>"`. The credential comes from a CredentialStore: the 0600 file here; the
// app can pass one backed by the OS keychain (src/main/secret-store.ts).

export interface OpenSync {
  conn: SyncConnection;
  deviceId: string;
  remote: RemoteDevices;
  sync: SyncConfig;
  close(): Promise<void>;
}

export function notConfigured(): DeskPilotError {
  return new DeskPilotError(
    'no sync server is configured: set sync.url in config.json ({"sync": {"url": "wss://sync.example.org"}}), DESKPILOT_SYNC_URL, or --sync-url',
    'unavailable',
  );
}

async function credentialOf(store: CredentialStore): Promise<SyncCredential> {
  const cred = await store.read();
  if (!cred) throw new DeskPilotError(`this device is not paired with the sync server: run \`deskpilot devices pair\` (first device) or \`deskpilot devices pair --join\``, 'unavailable');
  return cred;
}

/** A sync session for one CLI command: connected and synced, or a clear error. */
export async function openSync(config: Config, store: CredentialStore = credentialFile(config.configDir.value), opts: { timeoutMs?: number } = {}): Promise<OpenSync> {
  const sync = config.sync;
  if (!sync) throw notConfigured();
  const cred = await credentialOf(store);
  const deviceId = await loadDeviceId(config.configDir.value);
  if (cred.device_id !== deviceId) {
    throw new DeskPilotError(`${store.where} belongs to device ${cred.device_id}, but this config directory is device ${deviceId}: pair this device again`, 'invalid_input');
  }
  const conn = connectSync({ url: sync.url.value, token: { userId: cred.user_id, deviceId, deviceKey: cred.device_key }, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
  try {
    await conn.ready;
  } catch (e) {
    conn.close();
    throw e;
  }
  const session = { doc: conn.doc, deviceId, onlineDevices: () => conn.onlineDevices(), flushed: (ms?: number) => conn.flushed(ms) };
  return {
    conn,
    deviceId,
    sync,
    remote: new RemoteDevices(session, { ttlMs: sync.ttlMs }),
    close: async () => {
      // Deleted rows and answers reach the server before the connection goes.
      await conn.flushed(5_000).catch(() => undefined);
      conn.close();
    },
  };
}

/** A sync session for a front end that lives long (the MCP server, the app): opened on first use, again after a failure. */
export interface LazyRemote {
  /** Throws a DeskPilotError saying why the other devices cannot be reached. */
  remote(): Promise<RemoteDevices>;
  /**
   * The session if it is open now, without waiting (planning must not wait for a sync server that
   * is down); otherwise starts opening it — at most every 30 s after a failure — and gives null.
   */
  now(): RemoteDevices | null;
  close(): Promise<void>;
}

const RETRY_AFTER_MS = 30_000;

export function lazyRemote(config: Config, store?: CredentialStore): LazyRemote {
  let opening: Promise<OpenSync> | null = null;
  let open: OpenSync | null = null;
  let failedAt = -Infinity;
  const start = () => {
    if (!opening) {
      const o = openSync(config, store);
      opening = o;
      o.then(
        (s) => (open = s),
        () => {
          opening = null;
          failedAt = Date.now();
        },
      );
    }
    return opening;
  };
  return {
    remote: async () => (await start()).remote,
    now: () => {
      if (open) return open.remote;
      if (Date.now() - failedAt >= RETRY_AFTER_MS) void start().catch(() => undefined);
      return null;
    },
    close: async () => {
      const o = opening;
      opening = null;
      open = null;
      await o?.then((s) => s.close(), () => undefined);
    },
  };
}

export interface RunningDeviceSync {
  worker: DeviceWorker;
  stop(): Promise<void>;
}

/**
 * Starts this desk's device worker when sync is configured and the device is paired; says why
 * not otherwise (never fails the host: the desk works without sync).
 */
export async function startDeviceSync(config: Config, desk: Desk, log: (line: string) => void, store?: CredentialStore): Promise<RunningDeviceSync | null> {
  const sync = config.sync;
  if (!sync) return null;
  try {
    const cred = await credentialOf(store ?? credentialFile(config.configDir.value));
    const deviceId = await loadDeviceId(config.configDir.value);
    if (cred.device_id !== deviceId) throw new DeskPilotError(`the sync credential belongs to device ${cred.device_id}, not this one (${deviceId}): pair again`, 'invalid_input');
    const journal = await openTakenJournal(config.configDir.value, ROW_MAX_AGE_TTLS * sync.ttlMs);
    const conn = connectSync({ url: sync.url.value, token: { userId: cred.user_id, deviceId, deviceKey: cred.device_key } });
    const worker = new DeviceWorker({
      desk,
      link: conn,
      journal,
      deviceId,
      name: sync.deviceName.value,
      platform: process.platform,
      version: PACKAGE_VERSION,
      ttlMs: sync.ttlMs,
      log,
    });
    worker.start();
    void conn.ready.then(
      () => log(`sync: connected to ${sync.url.value} as "${sync.deviceName.value}"`),
      (e: unknown) => log(`sync: ${errorMessage(e)} (retrying in the background)`),
    );
    return {
      worker,
      stop: async () => {
        await worker.stop();
        await conn.flushed(3_000).catch(() => undefined);
        conn.close();
      },
    };
  } catch (e) {
    log(`sync: not started: ${errorMessage(e)}`);
    return null;
  }
}


export interface Paired {
  deviceId: string;
  /** The user secret when this call made it (the first device): shown once, kept nowhere. */
  newSecret: string | null;
  credentialAt: string;
}

/**
 * Pairs this device: with `secret` (typed by the user) it joins that user's devices, without
 * it a new user secret is made. The server must accept the device before anything is stored.
 */
export async function pairDevice(config: Config, opts: { secret: string | null; store?: CredentialStore }): Promise<Paired> {
  const sync = config.sync;
  if (!sync) throw notConfigured();
  const { newUserSecret, enrollKeyOf, userIdOf, newDeviceKey } = await import('../platform/sync/sync-secret');
  const store = opts.store ?? credentialFile(config.configDir.value);
  const deviceId = await loadDeviceId(config.configDir.value);
  const secret = opts.secret ?? newUserSecret();
  const enrollKey = enrollKeyOf(secret);
  const userId = userIdOf(enrollKey);
  const deviceKey = newDeviceKey();
  const conn = connectSync({ url: sync.url.value, token: { userId, deviceId, deviceKey, enrollKey } });
  try {
    await conn.ready;
    conn.doc.pairDevice({ v: 1, id: deviceId, name: sync.deviceName.value, platform: process.platform, version: PACKAGE_VERSION, last_seen: Date.now() });
    await conn.flushed();
  } finally {
    conn.close();
  }
  await store.write({ v: 1, user_id: userId, device_id: deviceId, device_key: deviceKey, paired_at: new Date().toISOString() });
  return { deviceId, newSecret: opts.secret ? null : secret, credentialAt: store.where };
}
