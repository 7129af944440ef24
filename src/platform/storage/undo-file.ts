import type { BatchUndoStore } from '../../engine/batch-record';
import { UndoFile, type UndoEntry } from '../../protocol/undo';
import { withFileLock } from './file-lock';
import { readJsonFile, writeJsonFile } from './json-file';

const KEEP = 50;

/**
 * undo.json in the state folder: a stack of the last 50 window-changing batches. A batch's
 * entry is put on it before the batch runs and saved in place as it runs (engine/batch-record.ts).
 */
export class UndoFileStore implements BatchUndoStore {
  constructor(readonly file: string) {}

  push(entry: UndoEntry): Promise<void> {
    return this.update((entries) => [...entries, entry]);
  }

  put(entry: UndoEntry): Promise<void> {
    return this.update((entries) => {
      const i = entries.findIndex((e) => e.batchId === entry.batchId);
      return i < 0 ? [...entries, entry] : entries.map((e, j) => (j === i ? entry : e));
    });
  }

  remove(batchId: string): Promise<void> {
    return this.update((entries) => entries.filter((e) => e.batchId !== batchId));
  }

  pop(n: number): Promise<UndoEntry[]> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const taken = data.entries.slice(-n).reverse();
      if (taken.length) await writeJsonFile(this.file, { version: 1, entries: data.entries.slice(0, data.entries.length - taken.length) });
      return taken;
    });
  }

  private update(change: (entries: UndoEntry[]) => UndoEntry[]): Promise<void> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const entries = change(data.entries);
      // Removing an entry that is not there changes nothing: no write.
      if (entries.length === data.entries.length && entries.every((e, i) => e === data.entries[i])) return;
      await writeJsonFile(this.file, { version: 1, entries: entries.slice(-KEEP) });
    });
  }

  private read() {
    return readJsonFile(this.file, UndoFile, { version: 1 as const, entries: [] });
  }
}
