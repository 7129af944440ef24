import path from 'node:path';
import { DeviceWorker } from '../app/device-worker';
import type { Desk } from '../app/desk';
import type { RemoteConsent } from '../app/sync/remote-consent';
import { RemoteDevices } from '../app/sync/remote-devices';
import { DeskPilotError, errorMessage } from '../engine/errors';
import { ROW_MAX_AGE_TTLS } from '../protocol/sync';
import type { Config } from '../platform/config/load-config';
import type { SyncConfig } from '../platform/config/sync-config';
import { PACKAGE_VERSION } from '../platform/package-version';
import { credentialFile, type CredentialStore, type SyncCredential } from '../platform/sync/credential-file';
import { deviceKeyFile, loadKeys, type DeviceKeyStore } from '../platform/sync/device-keys';
import type { Keyring } from '../platform/sync/sealed-rows';
import { connectSync, transportCheck, type SyncConnection } from '../platform/sync/sync-connection';
import { applyNotices, noticesOf } from '../platform/sync/trust-notices';
import { trustFile, type TrustStore } from '../platform/sync/trust-store';
import { openTakenJournal } from '../platform/sync/taken-journal';
import { loadDeviceId } from '../platform/storage/device-id';

// Wiring of the cross-device queue: the device worker inside the host that owns the desk, and
// short sync sessions for the CLI's `devices`, `exec --device`, `context --all-devices` and
// `run "… on <device>"`. The credential comes from a CredentialStore: the 0600 file here; the
// app can pass one backed by the OS keychain (src/main/secret-store.ts). Each session also holds
// this device's keys and its trust list (keyringOf): rows are sealed and verified with them, and
// the signed notices of the other desks (devices added, removed, new document keys) are applied
// to the trust list as they arrive.

export interface OpenSync {
  conn: SyncConnection;
  deviceId: string;
  trust: TrustStore;
  ring: Keyring;
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

let warned = false;

/** Says once per process that an allowed ws:// URL is not encrypted; gives whether it is allowed. */
export function warnIfInsecure(sync: SyncConfig, log: (line: string) => void = (line) => void process.stderr.write(`deskpilot: ${line}\n`)): boolean {
  const check = transportCheck(sync.url.value, sync.allowInsecure);
  if (check.ok && check.warning && !warned) {
    warned = true;
    log(`sync: ${check.warning}`);
  }
  return sync.allowInsecure;
}

/** This device's keys and trust list, from the config directory. */
export async function keyringOf(dir: string, deviceId: string, keys: DeviceKeyStore = deviceKeyFile(dir)): Promise<{ ring: Keyring; trust: TrustStore }> {
  const stored = await keys.read();
  const trust = trustFile(dir);
  const pairAgain = 'pair this device again (`deskpilot devices invite` on a paired device, then `deskpilot devices pair --join` here)';
  if (!stored) throw new DeskPilotError(`this device has no device keys (it was paired by an older DeskPilot, whose rows nobody checked): ${pairAgain}`, 'unavailable');
  if (stored.device_id !== deviceId) throw new DeskPilotError(`the device keys belong to device ${stored.device_id}, not this one (${deviceId}): ${pairAgain}`, 'invalid_input');
  const t = trust.get();
  if (t.self !== deviceId) throw new DeskPilotError(`${trust.where} belongs to device ${t.self}, not this one (${deviceId}): ${pairAgain}`, 'invalid_input');
  return { ring: { self: deviceId, keys: loadKeys(stored), trust: () => trust.get() }, trust };
}

/** Applies the other desks' signed notices now and whenever they change (at once, in the observer); returns the unsubscribe. */
function followNotices(conn: SyncConnection, ring: Keyring, trust: TrustStore, o: { log: (line: string) => void; removed: () => void; changed: () => void }): () => void {
  const apply = () => {
    try {
      const before = trust.get().current_epoch;
      const applied = applyNotices(conn.ydoc, ring, trust);
      applied.written.catch((e: unknown) => o.log(`sync: the trust list could not be written: ${errorMessage(e)}`));
      for (const line of applied.lines) o.log(`sync: ${line}`);
      if (applied.removedSelf) o.removed();
      else if (applied.lines.length || trust.get().current_epoch !== before) o.changed();
    } catch (e) {
      o.log(`sync: the trust list could not be updated: ${errorMessage(e)}`);
    }
  };
  const map = noticesOf(conn.ydoc);
  map.observe(apply);
  conn.onSynced(apply);
  if (conn.synced()) apply();
  return () => map.unobserve(apply);
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
  const { ring, trust } = await keyringOf(config.configDir.value, deviceId, store.deviceKeys);
  const conn = connectSync({ url: sync.url.value, allowInsecure: warnIfInsecure(sync), token: { userId: cred.user_id, deviceId, deviceKey: cred.device_key }, keyring: ring, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
  try {
    await conn.ready;
    const applied = applyNotices(conn.ydoc, ring, trust);
    await applied.written;
    if (applied.removedSelf) throw new DeskPilotError('this device was removed by another of your devices: pair it again to use it', 'refused');
  } catch (e) {
    conn.close();
    throw e;
  }
  const session = { doc: conn.doc, deviceId, onlineDevices: () => conn.onlineDevices(), flushed: (ms?: number) => conn.flushed(ms) };
  return {
    conn,
    deviceId,
    trust,
    ring,
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
export async function startDeviceSync(
  config: Config,
  desk: Desk,
  log: (line: string) => void,
  store?: CredentialStore,
  /** How this desk's user answers another device's request to close things here (the service's or the app's). */
  consent?: RemoteConsent,
): Promise<RunningDeviceSync | null> {
  const sync = config.sync;
  if (!sync) return null;
  try {
    const credentials = store ?? credentialFile(config.configDir.value);
    const cred = await credentialOf(credentials);
    const deviceId = await loadDeviceId(config.configDir.value);
    if (cred.device_id !== deviceId) throw new DeskPilotError(`the sync credential belongs to device ${cred.device_id}, not this one (${deviceId}): pair again`, 'invalid_input');
    // The journal is state: in the state folder (or where it was, when it could not be moved).
    const journal = await openTakenJournal(path.dirname(config.state.takenJournal), ROW_MAX_AGE_TTLS * sync.ttlMs);
    const { ring, trust } = await keyringOf(config.configDir.value, deviceId, credentials.deviceKeys);
    const conn = connectSync({ url: sync.url.value, allowInsecure: warnIfInsecure(sync, log), token: { userId: cred.user_id, deviceId, deviceKey: cred.device_key }, keyring: ring });
    const worker = new DeviceWorker({
      desk,
      consent,
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
    const unfollow = followNotices(conn, ring, trust, {
      log,
      removed: () => {
        log('sync: another of your devices removed this one; the worker stops — pair it again to use it');
        void worker.stop();
      },
      // A new document key: the desk is published again under it.
      changed: () => void worker.publishSoon(),
    });
    void conn.ready.then(
      () => log(`sync: connected to ${sync.url.value} as "${sync.deviceName.value}"`),
      (e: unknown) => log(`sync: ${errorMessage(e)} (retrying in the background)`),
    );
    return {
      worker,
      stop: async () => {
        unfollow();
        await worker.stop();
        // Unconnected, there is no flush to wait for: stop at once (the server may be gone for good).
        if (conn.synced()) await conn.flushed(3_000).catch(() => undefined);
        conn.close();
      },
    };
  } catch (e) {
    log(`sync: not started: ${errorMessage(e)}`);
    return null;
  }
}

