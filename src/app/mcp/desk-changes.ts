import type { DeskChange } from '../desk-watcher';

// Who hears that the desk changed: every MCP session subscribed to the desktop resource
// shares one source (the warm service's desk.changed events, or a watcher in this
// process), started by the first subscriber and stopped after the last.

/** Starts telling `emit` about changes; the returned function stops it. */
export type ChangeSource = (emit: (what: DeskChange[]) => void) => () => void;

export class DeskChanges {
  private readonly listeners = new Set<(what: DeskChange[]) => void>();
  private stopSource: (() => void) | null = null;

  constructor(private readonly source: ChangeSource) {}

  subscribe(fn: (what: DeskChange[]) => void): () => void {
    this.listeners.add(fn);
    this.stopSource ??= this.source((what) => {
      for (const l of this.listeners) l(what);
    });
    return () => {
      this.listeners.delete(fn);
      if (this.listeners.size === 0) this.close();
    };
  }

  close(): void {
    this.stopSource?.();
    this.stopSource = null;
  }
}
