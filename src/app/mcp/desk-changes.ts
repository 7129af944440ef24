import type { DeskChange } from '../desk-watcher';

// Who hears that the desk changed: every MCP session subscribed to the desktop resource
// shares one source (the warm service's desk.changed events, or a watcher in this
// process), started by the first subscriber and stopped after the last.

/** Starts telling `emit` about changes; the returned function stops it, and its `ready` settles once every later change will be told. */
export type ChangeSource = (emit: (what: DeskChange[]) => void) => (() => void) & { ready: Promise<void> };

export class DeskChanges {
  private readonly listeners = new Set<(what: DeskChange[]) => void>();
  private stopSource: ReturnType<ChangeSource> | null = null;

  constructor(private readonly source: ChangeSource) {}

  /** `ready` settles once changes from then on reach `fn` (the source has its starting point). */
  subscribe(fn: (what: DeskChange[]) => void): { unsubscribe: () => void; ready: Promise<void> } {
    this.listeners.add(fn);
    this.stopSource ??= this.source((what) => {
      for (const l of this.listeners) l(what);
    });
    const unsubscribe = () => {
      this.listeners.delete(fn);
      if (this.listeners.size === 0) this.close();
    };
    return { unsubscribe, ready: this.stopSource.ready };
  }

  close(): void {
    this.stopSource?.();
    this.stopSource = null;
  }
}
