import { open, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StateFileError, reasonOf } from '../storage/state-file';

// The command rows this device has started, written to disk (and synced) before it runs one:
// a device killed mid-command finds the row here when it comes back and answers it as
// interrupted instead of running it a second time. Entries older than `keepMs` are dropped
// when it is opened: by then their rows have expired and can never run anyway.

export const JOURNAL_FILE = 'sync-taken.jsonl';

export interface TakenJournal {
  has(rowId: string): boolean;
  /** Durable when it resolves. */
  add(rowId: string, createdAt: number): Promise<void>;
}

export async function openTakenJournal(configDir: string, keepMs: number, now = Date.now()): Promise<TakenJournal> {
  const file = path.join(configDir, JOURNAL_FILE);
  const entries = new Map<string, number>();
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new StateFileError(`${file}: cannot be read (${reasonOf(e)})`);
  }
  let dropped = false;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const { id, at } = JSON.parse(line) as { id: unknown; at: unknown };
      if (typeof id === 'string' && typeof at === 'number' && at + keepMs >= now) entries.set(id, at);
      else dropped = true;
    } catch {
      dropped = true; // a line cut by a crash mid-write: its row was never marked taken
    }
  }
  if (dropped) {
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, [...entries].map(([id, at]) => JSON.stringify({ id, at }) + '\n').join(''), { mode: 0o600 });
    await rename(tmp, file);
  }
  return {
    has: (id) => entries.has(id),
    add: async (id, createdAt) => {
      entries.set(id, createdAt);
      const handle = await open(file, 'a', 0o600);
      try {
        await handle.write(JSON.stringify({ id, at: createdAt }) + '\n');
        await handle.datasync();
      } finally {
        await handle.close();
      }
    },
  };
}
