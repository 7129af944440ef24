import sqlite3 from 'sqlite3';

// The sync server's list of paired devices, per user: the hash of each device key, and when a
// device was removed. It lives in the server's SQLite file beside the documents, so it survives
// restarts and is shared by server processes that share that file. Only SHA-256 hashes of the
// device keys are kept.

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

export class DeviceRegistry {
  constructor(private readonly db: sqlite3.Database) {}

  static async open(db: sqlite3.Database): Promise<DeviceRegistry> {
    await run(db, SCHEMA);
    return new DeviceRegistry(db);
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

export function run(db: sqlite3.Database, sql: string, params: Record<string, unknown> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    db.run(sql, params, function (this: sqlite3.RunResult, err: Error | null) {
      if (err) reject(err);
      else resolve(this.changes);
    });
  });
}

export function get<T>(db: sqlite3.Database, sql: string, params: Record<string, unknown> = {}): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    db.get(sql, params, (err: Error | null, row: T | undefined) => (err ? reject(err) : resolve(row)));
  });
}

/** Opens the server's file: WAL and a busy timeout, so several server processes can share it. */
export async function openDatabase(file: string): Promise<sqlite3.Database> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  db.configure('busyTimeout', 10_000);
  if (file !== ':memory:') await get(db, 'PRAGMA journal_mode = WAL');
  return db;
}

export function closeDatabase(db: sqlite3.Database): Promise<void> {
  return new Promise((resolve) => db.close(() => resolve()));
}
