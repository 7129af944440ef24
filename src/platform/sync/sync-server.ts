import { Server, type Extension, type onAuthenticatePayload, type afterLoadDocumentPayload } from '@hocuspocus/server';
import { ResilientRedis, type RedisTarget } from './redis-share';
import { SQLite } from '@hocuspocus/extension-sqlite';
import type BetterSqlite3 from 'better-sqlite3';
import type * as Y from 'yjs';
import { DeviceRow } from '../../protocol/sync';
import { Invite } from '../../protocol/sync-trust';
import { closeDatabase, DeviceRegistry, get, openDatabase, run } from './device-registry';
import { pairingMap, ticketHash } from './pairing';
import { documentNameFor, keyHash, parseToken, sameHash, userIdOf } from './sync-secret';

// The sync server: Hocuspocus serving one Yjs document per user, kept in a SQLite file, with
// Redis (optional) carrying updates between several server processes. It knows nothing of
// desks or commands, and reads none of them (they are encrypted and signed by the devices, which
// trust no server); it checks who connects and keeps removed devices out:
//  - onAuthenticate: the token names the user's document, the device and its key; the first
//    device of a user proves its enroll key (it hashes to the user id), a joining one brings the
//    server ticket of an unexpired, unused invite of that user (pairing.ts). A removed device, a
//    wrong key or another user's document is refused.
//  - invites written into a document are recorded (their ticket hashes) as they appear;
//  - a device row marked removed (by `deskpilot devices remove` on any device) is recorded and
//    that device's open connections are closed at once, on every server process that has the
//    document loaded (the mark reaches them through Redis like any update).

export interface SyncServerOptions {
  port: number;
  host: string;
  /** SQLite file; ":memory:" keeps nothing. */
  dataFile: string;
  /** redis://host:port or unix:///path/to/socket — to share the load with other server processes. */
  redisUrl?: string;
  log?: (line: string) => void;
}

export interface RunningSyncServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

const REMOVED = 'this device was removed';

class RefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export async function startSyncServer(opts: SyncServerOptions): Promise<RunningSyncServer> {
  const log = opts.log ?? (() => undefined);
  const db = await openDatabase(opts.dataFile);
  const registry = await DeviceRegistry.open(db);
  const extensions: Extension[] = [sqliteStore(db, opts.dataFile)];
  if (opts.redisUrl) extensions.push(new ResilientRedis(redisConfig(opts.redisUrl), log));

  const refuse = (why: string, documentName: string): never => {
    log(`refused a connection to ${documentName}: ${why}`);
    throw new RefusedError(why);
  };

  const removals = new RemovalWatch(registry, log);

  const server = new Server({
    port: opts.port,
    address: opts.host,
    quiet: true,
    stopOnSignals: false,
    debounce: 1000,
    maxDebounce: 5000,
    extensions: [
      ...extensions,
      {
        async onAuthenticate({ token, documentName, instance }: onAuthenticatePayload) {
          const t = parseToken(token);
          if (!t) return refuse('not a DeskPilot sync token', documentName);
          if (documentName !== documentNameFor(t.userId)) return refuse('the token is not for this document', documentName);
          const hash = keyHash(t.deviceKey);
          if (t.enrollKey) {
            if (userIdOf(t.enrollKey) !== t.userId) return refuse('wrong enroll key', documentName);
            await registry.enroll(t.userId, t.deviceId, hash);
            log(`paired device ${t.deviceId} of user ${t.userId.slice(0, 8)}…`);
          } else if (t.ticket) {
            const ticket = ticketHash(Buffer.from(t.ticket, 'base64url'));
            // The invite may be in the loaded document before its record is written.
            const loaded = instance.documents.get(documentName);
            if (loaded) await recordInvites(registry, t.userId, loaded);
            // A ticket never takes over a device that finished pairing (it has its row in the
            // document); one whose pairing stopped half-way (say, a mistyped code) may try again.
            const before = await registry.get(t.userId, t.deviceId);
            const row = loaded ? DeviceRow.safeParse(loaded.getMap('devices').get(t.deviceId)) : null;
            if (before && before.removedAt === null && row?.success && row.data.removed_at === undefined) {
              return refuse('this device is already paired (remove it first to pair it again)', documentName);
            }
            if (!(await registry.useInvite(t.userId, ticket))) return refuse('the pairing code is not valid (used, expired or withdrawn)', documentName);
            await registry.enroll(t.userId, t.deviceId, hash);
            log(`paired device ${t.deviceId} of user ${t.userId.slice(0, 8)}… by invitation`);
          } else {
            const rec = await registry.get(t.userId, t.deviceId);
            if (!rec) return refuse('this device is not paired', documentName);
            if (rec.removedAt !== null) return refuse(REMOVED, documentName);
            if (!sameHash(rec.keyHash, hash)) return refuse('wrong device key', documentName);
            // Another server process may have seen the removal first: the loaded document says so too.
            const loaded = instance.documents.get(documentName);
            const row = loaded ? DeviceRow.safeParse(loaded.getMap('devices').get(t.deviceId)) : null;
            if (row?.success && row.data.removed_at !== undefined && row.data.removed_at >= rec.pairedAt) {
              await registry.remove(t.userId, t.deviceId, row.data.removed_at);
              return refuse(REMOVED, documentName);
            }
          }
          // Since when this device is paired: a removal mark older than that (a device paired
          // again) does not close its connection.
          const rec = await registry.get(t.userId, t.deviceId);
          return { userId: t.userId, deviceId: t.deviceId, pairedAt: rec?.pairedAt ?? 0 };
        },
        async afterLoadDocument({ document, documentName }: afterLoadDocumentPayload) {
          removals.watch(documentName, document);
          const userId = userOf(documentName);
          if (userId) {
            const record = () => void recordInvites(registry, userId, document).catch((e: unknown) => log(`invites of ${userId.slice(0, 8)}… not recorded: ${String(e)}`));
            pairingMap(document).observeDeep(record);
            record();
          }
        },
      },
    ],
  });
  await server.listen(opts.port);
  const address = server.httpServer.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return {
    port,
    url: `ws://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    close: async () => {
      await server.destroy();
      // Hocuspocus only sends each document a close message: the websockets stay open until
      // every client gives up (30 s, or never for one that keeps talking), and so does the process.
      closeSockets(server);
      await closeDatabase(db);
    },
  };
}

const userOf = (documentName: string) => (documentName.startsWith('deskpilot/') ? documentName.slice('deskpilot/'.length) : null);

/** Records the ticket hashes of the invites in a document (the server's only look into pairing). */
async function recordInvites(registry: DeviceRegistry, userId: string, document: Y.Doc): Promise<void> {
  for (const entry of pairingMap(document).values()) {
    const invite = Invite.safeParse((entry as { get?: (k: string) => unknown }).get?.('invite'));
    if (invite.success) await registry.recordInvite(userId, invite.data.ticket_hash, invite.data.expires_at);
  }
}

/** Records removals marked in a document's device rows, and closes the removed devices' connections. */
class RemovalWatch {
  constructor(
    private readonly registry: DeviceRegistry,
    private readonly log: (line: string) => void,
  ) {}

  watch(
    documentName: string,
    document: Y.Doc & { getConnections(): Array<{ context: unknown; webSocket: { close(code?: number, reason?: string): void }; close(e?: { code: number; reason: string }): void }> },
  ): void {
    const userId = userOf(documentName);
    if (!userId) return;
    const devices = document.getMap('devices');
    const check = () => {
      for (const value of devices.values()) {
        const row = DeviceRow.safeParse(value);
        if (!row.success || row.data.removed_at === undefined) continue;
        const { id, removed_at } = row.data;
        void this.registry.remove(userId, id, removed_at).then((changed) => {
          if (changed) this.log(`device ${id} of user ${userId.slice(0, 8)}… removed`);
        });
        for (const conn of document.getConnections()) {
          const ctx = conn.context as { deviceId?: string; pairedAt?: number } | undefined;
          if (ctx?.deviceId !== id || (ctx.pairedAt ?? 0) > removed_at) continue;
          // Closing the socket (one document per socket here) makes the device reconnect and
          // hear the refusal from onAuthenticate, like any later attempt.
          conn.close({ code: 4403, reason: REMOVED });
          conn.webSocket.close(4403, REMOVED);
        }
      }
    };
    devices.observe(check);
    check();
  }
}

/** Hocuspocus's SQLite extension on our own handle: stores awaited, so a busy file is retried, not a crash. */
function sqliteStore(db: BetterSqlite3.Database, file: string): Extension {
  const store = new SQLite({
    database: file,
    fetch: async ({ documentName }) => (await get<{ data: Uint8Array }>(db, 'SELECT data FROM "documents" WHERE name = $name', { $name: documentName }))?.data ?? null,
    store: async ({ documentName, state }) => {
      await run(db, 'INSERT INTO "documents" ("name", "data") VALUES ($name, $data) ON CONFLICT(name) DO UPDATE SET data = $data', { $name: documentName, $data: state });
    },
  });
  store.onConfigure = async () => {
    store.db = db;
    await run(db, store.configuration.schema);
  };
  store.onListen = async () => undefined;
  return store;
}

function redisConfig(url: string): RedisTarget {
  const u = new URL(url);
  if (u.protocol === 'unix:') return { path: u.pathname };
  if (u.protocol !== 'redis:') throw new Error(`--redis ${url}: must be redis://host:port or unix:///path/to/socket`);
  return { host: u.hostname || '127.0.0.1', port: Number(u.port || 6379), ...(u.password ? { password: decodeURIComponent(u.password) } : {}) };
}

/** How long a client may take to answer the close before its socket is cut. */
const SOCKET_CLOSE_GRACE_MS = 1_000;

/** What Hocuspocus 4's Server keeps its websockets in: crossws's Node adapter (a private field, hence checked). */
interface SocketAdapter {
  closeAll(code?: number, reason?: string, force?: boolean): void;
}

/** Closes every websocket ("going away"), cutting the ones that do not answer within the grace. */
function closeSockets(server: Server): void {
  const adapter = (server as unknown as { crossws?: Partial<SocketAdapter> }).crossws;
  if (typeof adapter?.closeAll !== 'function') throw new Error('@hocuspocus/server no longer keeps its websockets in `crossws`: the sync server cannot close them');
  const sockets = adapter as SocketAdapter;
  sockets.closeAll(1001, 'the sync server is stopping');
  setTimeout(() => sockets.closeAll(undefined, undefined, true), SOCKET_CLOSE_GRACE_MS).unref();
}
