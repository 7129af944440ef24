import type { ContextSnapshot, TabInfo } from '../../protocol/context';

// Snapshots handed to MCP clients, by id. A tab index means something only in the snapshot
// it was read from: tools that take indices take that snapshot's id too, and act on the
// stable tab ids the snapshot holds. Kept for a while and a bounded number, so a long
// session cannot grow the server without limit; an expired id is refused, never guessed.

export const SNAPSHOT_TTL_MS = 10 * 60 * 1000;
export const MAX_SNAPSHOTS = 20;

interface Kept {
  snapshot: ContextSnapshot;
  at: number;
}

export class SnapshotStore {
  private readonly kept = new Map<string, Kept>();
  private seq = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps the snapshot and returns its id ("s1", "s2", …: short, so a model copies it cheaply). */
  put(snapshot: ContextSnapshot): string {
    this.expire();
    const id = `s${++this.seq}`;
    this.kept.set(id, { snapshot, at: this.now() });
    while (this.kept.size > MAX_SNAPSHOTS) this.kept.delete(this.kept.keys().next().value!);
    return id;
  }

  get(id: string): ContextSnapshot | undefined {
    this.expire();
    return this.kept.get(id)?.snapshot;
  }

  /** The newest kept snapshot that had this tab, and the tab in it (a vanished tab can still be described). */
  findTab(targetId: string): { snapshot: ContextSnapshot; tab: TabInfo } | undefined {
    this.expire();
    for (const { snapshot } of [...this.kept.values()].reverse()) {
      const tab = snapshot.tabs.find((t) => t.target_id === targetId);
      if (tab) return { snapshot, tab };
    }
    return undefined;
  }

  private expire(): void {
    const now = this.now();
    for (const [id, k] of this.kept) if (now - k.at > SNAPSHOT_TTL_MS) this.kept.delete(id);
  }
}
