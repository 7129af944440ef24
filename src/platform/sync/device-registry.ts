import BetterSqlite3 from 'better-sqlite3';

// The sync server's list of paired devices, per user: the hash of each device key, and when a
// device was removed. It lives in the server's SQLite file beside the documents, so it survives
// restarts and is shared by server processes that share that file. Only SHA-256 hashes of the
// device keys are kept, and of the one-time pairing tickets (learned from the invites devices
// write into the document: a ticket lets one new device in, once, before it expires).

export interface DeviceRecord {
  keyHash: string;
  pairedAt: number;
  removedAt: number | null;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS "deskpilot_devices" (
  "user_id" TEXT NOT NULL,
  "device_id" TEXT NOT NULL,
  "key_hash" TEXT NOT NULL,
  "paired_at" INTEGER NOT NULL,
  "removed_at" INTEGER,
  PRIMARY KEY ("user_id", "device_id")
)`;

const INVITES = `CREATE TABLE IF NOT EXISTS "deskpilot_invites" (
  "user_id" TEXT NOT NULL,
  "ticket_hash" TEXT NOT NULL,
  "expires_at" INTEGER NOT NULL,
  "used_at" INTEGER,
  PRIMARY KEY ("user_id", "ticket_hash")
)`;

/** An invite is honoured for at most this long after the server first saw it, whatever it says. */
export const MAX_INVITE_MS = 15 * 60_000;

export class DeviceRegistry {
  constructor(private readonly db: BetterSqlite3.Database) {}

  static async open(db: BetterSqlite3.Database): Promise<DeviceRegistry> {
    await run(db, SCHEMA);
    await run(db, INVITES);
    return new DeviceRegistry(db);
  }

  /** Records an invite seen in a document (again: nothing changes). */
  async recordInvite(userId: string, ticketHash: string, expiresAt: number, now = Date.now()): Promise<void> {
    await run(this.db, 'INSERT OR IGNORE INTO deskpilot_invites (user_id, ticket_hash, expires_at, used_at) VALUES ($u, $h, $e, NULL)', {
      $u: userId,
      $h: ticketHash,
      $e: Math.min(expiresAt, now + MAX_INVITE_MS),
    });
  }

  /** Uses an invite: true once for an unexpired one, then never again. */
  async useInvite(userId: string, ticketHash: string, now = Date.now()): Promise<boolean> {
    const changes = await run(this.db, 'UPDATE deskpilot_invites SET used_at = $t WHERE user_id = $u AND ticket_hash = $h AND used_at IS NULL AND expires_at >= $t', {
      $u: userId,
      $h: ticketHash,
      $t: now,
    });
    return changes > 0;
  }

  async get(userId: string, deviceId: string): Promise<DeviceRecord | null> {
    const row = await get<{ key_hash: string; paired_at: number; removed_at: number | null }>(
      this.db,
      'SELECT key_hash, paired_at, removed_at FROM deskpilot_devices WHERE user_id = $u AND device_id = $d',
      { $u: userId, $d: deviceId },
    );
    return row ? { keyHash: row.key_hash, pairedAt: row.paired_at, removedAt: row.removed_at } : null;
  }

  /** Pairs (or pairs again) a device with a new key; a removal before is lifted. */
  async enroll(userId: string, deviceId: string, keyHash: string, now = Date.now()): Promise<void> {
    await run(
      this.db,
      `INSERT INTO deskpilot_devices (user_id, device_id, key_hash, paired_at, removed_at) VALUES ($u, $d, $k, $t, NULL)
       ON CONFLICT (user_id, device_id) DO UPDATE SET key_hash = $k, paired_at = $t, removed_at = NULL`,
      { $u: userId, $d: deviceId, $k: keyHash, $t: now },
    );
  }

  /** Marks a device removed; true when it was not removed before. */
  async remove(userId: string, deviceId: string, at: number): Promise<boolean> {
    const changes = await run(
      this.db,
      'UPDATE deskpilot_devices SET removed_at = $t WHERE user_id = $u AND device_id = $d AND removed_at IS NULL AND paired_at <= $t',
      { $u: userId, $d: deviceId, $t: at },
    );
    return changes > 0;
  }
}

// better-sqlite3 is synchronous: each statement runs to its end before the event loop goes on.
// The helpers stay promise-shaped so the callers read the same as with an asynchronous driver.
// The SQL names its parameters `$x`; better-sqlite3 wants the object's keys without the prefix.
// A statement without parameters is given none (better-sqlite3 refuses an object it has no use for).
const bind = (params: Record<string, unknown>): [Record<string, unknown>] | [] =>
  Object.keys(params).length ? [Object.fromEntries(Object.entries(params).map(([k, v]) => [k.replace(/^\$/, ''), v]))] : [];

export async function run(db: BetterSqlite3.Database, sql: string, params: Record<string, unknown> = {}): Promise<number> {
  return db.prepare(sql).run(...bind(params)).changes;
}

export async function get<T>(db: BetterSqlite3.Database, sql: string, params: Record<string, unknown> = {}): Promise<T | undefined> {
  return db.prepare(sql).get(...bind(params)) as T | undefined;
}

/** Opens the server's file: WAL and a busy timeout, so several server processes can share it. */
export async function openDatabase(file: string): Promise<BetterSqlite3.Database> {
  // A busy file is waited for (blocking, as every call of this driver), up to 10 s, then an error.
  const db = new BetterSqlite3(file, { timeout: 10_000 });
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  return db;
}

export async function closeDatabase(db: BetterSqlite3.Database): Promise<void> {
  db.close();
}
