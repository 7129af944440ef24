import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { DeskPilotError } from '../../engine/errors';
import type { Keyring } from './sealed-rows';
import { SyncDoc } from './sync-doc';
import { documentNameFor, formatToken, type SyncToken } from './sync-secret';

// One device's connection to its user's document: a Hocuspocus provider (ws in Node) that
// keeps reconnecting by itself. `ready` settles once: synced, refused, or no answer in time.

export interface SyncConnection {
  doc: SyncDoc;
  ydoc: Y.Doc;
  provider: HocuspocusProvider;
  /** Resolves when first synced; rejects when refused or when the server does not answer in time. */
  ready: Promise<void>;
  /** Whether the server has every change made here (e.g. a row marked taken, a row deleted). */
  settled(): boolean;
  /** Resolves when the server has every change made so far (or rejects after `timeoutMs`). */
  flushed(timeoutMs?: number): Promise<void>;
  /** This provider's awareness: who is online. */
  onlineDevices(): Set<string>;
  setOnline(deviceId: string | null): void;
  /** Whether the document is synced with the server now. */
  synced(): boolean;
  /** Called each time the document is synced again (after a reconnect too). */
  onSynced(fn: () => void): void;
  /** Called with the server's reason when it refuses this device (now or on a reconnect). */
  onRefused(fn: (reason: string) => void): void;
  close(): void;
}

export interface ConnectOptions {
  url: string;
  /** A ws:// URL to a host other than this computer is refused unless this is true (sync.allow_insecure). */
  allowInsecure?: boolean;
  token: SyncToken;
  /** This device's keys and trust list: rows and snapshots need them (pairing does not). */
  keyring?: Keyring;
  /** How long `ready` waits for the first sync. */
  timeoutMs?: number;
}

const DEFAULT_READY_MS = 15_000;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Whether `url` may be used: wss:// always; ws:// to this computer (127.0.0.0/8, ::1, localhost)
 * always; ws:// to any other host only when allowed, and then with a warning to say. Rows and
 * desks are encrypted either way, but ws:// shows the server's connection credentials and who
 * connects when to anyone on the path.
 */
export function transportCheck(url: string, allowInsecure = false): { ok: true; warning: string | null } | { ok: false; message: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, message: `sync.url: ${url} is not a URL` };
  }
  if (u.protocol === 'wss:' || (u.protocol === 'ws:' && LOOPBACK.test(u.hostname))) return { ok: true, warning: null };
  if (u.protocol !== 'ws:') return { ok: false, message: `sync.url: must be wss:// (or ws:// to this computer), not ${u.protocol}//` };
  if (!allowInsecure) {
    return {
      ok: false,
      message: `sync.url: ws://${u.host} is not encrypted: anyone on the way sees this device's connection credential and when your devices talk. Use wss:// (the sync server behind TLS), or set "sync": {"allow_insecure": true} (or DESKPILOT_SYNC_ALLOW_INSECURE=1) if this network is yours`,
    };
  }
  return { ok: true, warning: `warning: sync.url ws://${u.host} is not encrypted (allowed by sync.allow_insecure): its connection credentials can be read on the way; commands and desks stay encrypted and signed` };
}

export function connectSync(opts: ConnectOptions): SyncConnection {
  const transport = transportCheck(opts.url, opts.allowInsecure);
  if (!transport.ok) throw new DeskPilotError(transport.message, 'invalid_input');
  const ydoc = new Y.Doc();
  const refusedFns: Array<(reason: string) => void> = [];
  let settle!: { resolve: () => void; reject: (e: Error) => void };
  const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => undefined);
  const socket = new HocuspocusProviderWebsocket({
    url: opts.url,
    WebSocketPolyfill: WebSocket,
    // A refused or unreachable server is retried with backoff; never hammered.
    minDelay: 500,
    maxDelay: 10_000,
  });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: documentNameFor(opts.token.userId),
    document: ydoc,
    token: formatToken(opts.token),
    onSynced: () => settle.resolve(),
    onAuthenticationFailed: ({ reason }) => {
      settle.reject(new DeskPilotError(`the sync server at ${opts.url} refused this device: ${reason}`, 'refused'));
      for (const fn of refusedFns) fn(reason);
    },
  });
  provider.attach();
  const timer = setTimeout(
    () => settle.reject(new DeskPilotError(`the sync server at ${opts.url} did not answer within ${Math.round((opts.timeoutMs ?? DEFAULT_READY_MS) / 1000)} s`, 'unavailable')),
    opts.timeoutMs ?? DEFAULT_READY_MS,
  );
  timer.unref();
  void ready.finally(() => clearTimeout(timer)).catch(() => undefined);

  const settled = () => provider.isSynced && !provider.hasUnsyncedChanges;
  return {
    doc: new SyncDoc(ydoc, opts.keyring ?? null),
    ydoc,
    provider,
    ready,
    settled,
    flushed: (timeoutMs = DEFAULT_READY_MS) =>
      new Promise<void>((resolve, reject) => {
        if (settled()) return resolve();
        const t = setTimeout(() => {
          provider.off('unsyncedChanges', check);
          reject(new DeskPilotError(`the sync server at ${opts.url} did not confirm the last change within ${Math.round(timeoutMs / 1000)} s`, 'unavailable'));
        }, timeoutMs);
        const check = () => {
          if (!settled()) return;
          clearTimeout(t);
          provider.off('unsyncedChanges', check);
          resolve();
        };
        provider.on('unsyncedChanges', check);
        provider.on('synced', check);
      }),
    onlineDevices: () => {
      const out = new Set<string>();
      for (const state of provider.awareness?.getStates().values() ?? []) {
        const device = (state as { device?: unknown }).device;
        if (typeof device === 'string') out.add(device);
      }
      return out;
    },
    setOnline: (deviceId) => provider.awareness?.setLocalState(deviceId ? { device: deviceId } : null),
    synced: () => provider.isSynced,
    onSynced: (fn) => void provider.on('synced', ({ state }: { state: boolean }) => state && fn()),
    onRefused: (fn) => void refusedFns.push(fn),
    close: () => {
      clearTimeout(timer);
      // A socket still connecting reports its abort as an 'error' event after the provider has
      // removed its listeners; unheard, that event would crash the process that is stopping.
      (socket.webSocket as { on?(event: 'error', fn: () => void): void } | null)?.on?.('error', () => undefined);
      provider.destroy();
      socket.destroy();
      ydoc.destroy();
    },
  };
}
