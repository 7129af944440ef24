import type { UndoEntry, UndoTab, UndoWindow } from '../protocol/undo';
import type { RawWindow } from './ports';

/**
 * Gathers, during one batch, where each touched window was before its first change, which
 * window had focus, and how each changed tab was, so the batch can be undone as a whole.
 */
export class UndoCollector {
  private readonly windows = new Map<string, UndoWindow>();
  private focused: string | null | undefined;
  private readonly irreversible: string[] = [];
  private readonly tabs: UndoTab[] = [];
  private changes = 0;

  /** How many changes were noted so far: a batch saves its undo entry again only when this moved. */
  get version(): number {
    return this.changes;
  }

  private get changed(): boolean {
    return this.changes > 0;
  }

  /** Call before changing a window; only its state before the first change counts. */
  touch(w: RawWindow, app: string): void {
    this.changes++;
    if (!this.windows.has(w.id)) {
      this.windows.set(w.id, { id: w.id, app, title: w.title, before: [...w.bounds], minimized: w.minimized, ...(w.fullscreen ? { fullscreen: true } : {}), ...(w.tiled ? { tiled: true } : {}) });
    }
  }

  /** Call before changing focus, with the current window list. */
  noteFocus(all: readonly RawWindow[]): void {
    this.changes++;
    if (this.focused === undefined) this.focused = all.find((w) => w.focused)?.id ?? null;
  }

  /** Call after changing a tab, with how it was before (or, for a closed tab, where it was). */
  tab(change: UndoTab): void {
    this.changes++;
    this.tabs.push(change);
  }

  cannotUndo(what: string): void {
    this.changes++;
    this.irreversible.push(what);
  }

  entry(batchId: string, at: number, label: string): UndoEntry | null {
    if (!this.changed) return null;
    return this.build(batchId, at, label);
  }

  /**
   * What the batch has changed so far, marked pending: saved before the first command runs and
   * after each change, so a process killed mid-batch leaves its part-done batch on the undo stack.
   */
  pendingEntry(batchId: string, at: number, label: string): UndoEntry {
    return { ...this.build(batchId, at, label), pending: true };
  }

  private build(batchId: string, at: number, label: string): UndoEntry {
    const entry: UndoEntry = { batchId, at, label, windows: [...this.windows.values()], focused: this.focused ?? null, irreversible: [...this.irreversible] };
    return this.tabs.length ? { ...entry, tabs: [...this.tabs] } : entry;
  }
}
