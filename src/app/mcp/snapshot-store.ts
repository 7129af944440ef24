import type { ContextSnapshot, TabInfo } from '../../protocol/context';

// Snapshots handed to MCP clients, by id. A tab index means something only in the snapshot
// it was read from: tools that take indices take that snapshot's id too, and act on the
// stable tab ids the snapshot holds. Kept for a while and a bounded number, so a long
// session cannot grow the server without limit; an expired id is refused, never guessed.
// Snapshots of other devices share the numbering but are kept per device: an id read from
// one device's desk is never resolved against another's.

export const SNAPSHOT_TTL_MS = 10 * 60 * 1000;
export const MAX_SNAPSHOTS = 20;

/** Whose desk a snapshot is: null for this computer. */
export type SnapshotOwner = { id: string; name: string } | null;

interface Kept {
  snapshot: ContextSnapshot;
  at: number;
  owner: SnapshotOwner;
}

interface Shelf {
  kept: Map<string, Kept>;
  seq: number;
}

export class SnapshotStore {
  constructor(
    private readonly now: () => number = Date.now,
    private readonly shelf: Shelf = { kept: new Map(), seq: 0 },
    readonly owner: SnapshotOwner = null,
  ) {}

  /** The same store, for the snapshots of another device. */
  forDevice(owner: SnapshotOwner): SnapshotStore {
    return new SnapshotStore(this.now, this.shelf, owner);
  }

  /** Keeps the snapshot and returns its id ("s1", "s2", …: short, so a model copies it cheaply). */
  put(snapshot: ContextSnapshot): string {
    this.expire();
    const id = `s${++this.shelf.seq}`;
    this.shelf.kept.set(id, { snapshot, at: this.now(), owner: this.owner });
    while (this.shelf.kept.size > MAX_SNAPSHOTS) this.shelf.kept.delete(this.shelf.kept.keys().next().value!);
    return id;
  }

  get(id: string): ContextSnapshot | undefined {
    this.expire();
    const k = this.shelf.kept.get(id);
    return k && this.mine(k) ? k.snapshot : undefined;
  }

  /** The owner of a kept snapshot that is not this store's device's (to say which device to name), else undefined. */
  ownerElsewhere(id: string): SnapshotOwner | undefined {
    const k = this.shelf.kept.get(id);
    return k && !this.mine(k) ? k.owner : undefined;
  }

  /** The newest kept snapshot that had this tab, and the tab in it (a vanished tab can still be described). */
  findTab(targetId: string): { snapshot: ContextSnapshot; tab: TabInfo } | undefined {
    this.expire();
    for (const k of [...this.shelf.kept.values()].reverse()) {
      if (!this.mine(k)) continue;
      const tab = k.snapshot.tabs.find((t) => t.target_id === targetId);
      if (tab) return { snapshot: k.snapshot, tab };
    }
    return undefined;
  }

  private mine(k: Kept): boolean {
    return (k.owner?.id ?? null) === (this.owner?.id ?? null);
  }

  private expire(): void {
    const now = this.now();
    for (const [id, k] of this.shelf.kept) if (now - k.at > SNAPSHOT_TTL_MS) this.shelf.kept.delete(id);
  }
}
