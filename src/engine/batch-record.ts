import type { ExecutionRecord } from '../protocol/record';
import type { UndoEntry } from '../protocol/undo';
import { errorMessage } from './errors';
import type { HistoryStore, UndoStore } from './ports';
import type { UndoCollector } from './undo-collector';

// A batch is recorded as it runs, not after (issue 24, D7): a process killed mid-batch (kill -9,
// a crash, a power cut) used to leave the commands it had run with no history and no undo entry,
// so the next "undo" reverted the batch before it. Now the batch's undo entry is on the stack,
// marked pending, before its first command runs, and saved again after each command that
// changed something; each command's history record is appended as soon as it has run. The entry
// is completed (or removed, when nothing could be undone) at the end. A pending entry found
// later is a batch that stopped part-way: undo says so, and reverts what it had recorded.

/** An undo stack that can also save one batch's entry in place, and take it off again. */
export interface BatchUndoStore extends UndoStore {
  /** Writes `entry` over the entry of the same batch, or on top of the stack when there is none. */
  put(entry: UndoEntry): Promise<void>;
  /** Takes the entry of `batchId` off the stack, wherever it is (none: nothing happens). */
  remove(batchId: string): Promise<void>;
}

/** Commands that change nothing on the desk: a batch of only these writes no undo entry at all. */
const READ_ONLY = new Set(['query', 'list_tabs', 'list_apps']);

export class BatchRecorder {
  readonly warnings: string[] = [];
  private saved = -1;

  constructor(
    private readonly stores: { undo: BatchUndoStore; history: HistoryStore },
    private readonly batch: { id: string; at: number; label: string; types: readonly string[] },
    private readonly undo: UndoCollector,
  ) {}

  /** An undo batch is not itself undone; a read-only one has nothing to undo. */
  private get keepsUndo(): boolean {
    return !this.batch.types.includes('undo') && !this.batch.types.every((t) => READ_ONLY.has(t));
  }

  /** Before the first command: the pending entry goes on the stack. */
  async begin(): Promise<void> {
    if (this.keepsUndo) await this.savePending();
  }

  /**
   * After each command: its history record, and the undo entry again if the command changed
   * something (not after the last: `finish` writes the completed entry next).
   */
  async ran(record: ExecutionRecord, last: boolean): Promise<void> {
    await this.stores.history.append([record]).catch((e: unknown) => this.warn(`history was not saved: ${errorMessage(e)}`));
    if (this.keepsUndo && !last && this.undo.version !== this.saved) await this.savePending();
  }

  /** After the last command: the entry completed, or taken off when the batch changed nothing undo could revert. */
  async finish(): Promise<void> {
    if (!this.keepsUndo) return;
    const entry = this.undo.entry(this.batch.id, this.batch.at, this.batch.label);
    await (entry ? this.stores.undo.put(entry) : this.stores.undo.remove(this.batch.id)).catch((e: unknown) =>
      this.warn(`undo information was not saved: ${errorMessage(e)}`),
    );
  }

  private async savePending(): Promise<void> {
    const version = this.undo.version;
    await this.stores.undo.put(this.undo.pendingEntry(this.batch.id, this.batch.at, this.batch.label)).then(
      () => void (this.saved = version),
      (e: unknown) => this.warn(`undo information was not saved: ${errorMessage(e)}`),
    );
  }

  private warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }
}
