import type { UndoStore } from '../../engine/ports';
import { UndoFile, type UndoEntry } from '../../protocol/undo';
import { withFileLock } from './file-lock';
import { readJsonFile, writeJsonFile } from './json-file';

const KEEP = 50;

/** undo.json in the config dir: a stack of the last 50 window-changing batches. */
export class UndoFileStore implements UndoStore {
  constructor(readonly file: string) {}

  push(entry: UndoEntry): Promise<void> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      await writeJsonFile(this.file, { version: 1, entries: [...data.entries, entry].slice(-KEEP) });
    });
  }

  pop(n: number): Promise<UndoEntry[]> {
    return withFileLock(this.file, async () => {
      const data = await this.read();
      const taken = data.entries.slice(-n).reverse();
      if (taken.length) await writeJsonFile(this.file, { version: 1, entries: data.entries.slice(0, data.entries.length - taken.length) });
      return taken;
    });
  }

  private read() {
    return readJsonFile(this.file, UndoFile, { version: 1 as const, entries: [] });
  }
}
