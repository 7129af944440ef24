import type { UndoEntry, UndoWindow } from '../protocol/undo';
import type { RawWindow } from './ports';

/**
 * Gathers, during one batch, where each touched window was before its first change and
 * which window had focus, so the batch can be undone as a whole.
 */
export class UndoCollector {
  private readonly windows = new Map<string, UndoWindow>();
  private focused: string | null | undefined;
  private readonly irreversible: string[] = [];
  private changed = false;

  /** Call before changing a window; only its state before the first change counts. */
  touch(w: RawWindow, app: string): void {
    this.changed = true;
    if (!this.windows.has(w.id)) {
      this.windows.set(w.id, { id: w.id, app, title: w.title, before: [...w.bounds], minimized: w.minimized });
    }
  }

  /** Call before changing focus, with the current window list. */
  noteFocus(all: readonly RawWindow[]): void {
    this.changed = true;
    if (this.focused === undefined) this.focused = all.find((w) => w.focused)?.id ?? null;
  }

  cannotUndo(what: string): void {
    this.changed = true;
    this.irreversible.push(what);
  }

  entry(batchId: string, at: number, label: string): UndoEntry | null {
    if (!this.changed) return null;
    return { batchId, at, label, windows: [...this.windows.values()], focused: this.focused ?? null, irreversible: this.irreversible };
  }
}
