// A read of sway's state, reused for a moment. One batch reads the tree four times within a few
// milliseconds (the snapshot, the operation's own look, restore, the move itself): nothing
// DeskPilot sent can have changed it when no command went out since (every command forgets what
// was kept), and a change made elsewhere is at most `reuseMs` old — as in a snapshot a moment old.
// Waits for a change (a client answering a resize) never use it: they read afresh.

export class RecentReads {
  private readonly kept = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(
    private readonly reuseMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const k = this.kept.get(key);
    if (k && this.now() - k.at <= this.reuseMs) return k.value as Promise<T>;
    const value = read();
    this.kept.set(key, { at: this.now(), value });
    // A failed read is never handed out again.
    value.catch(() => {
      if (this.kept.get(key)?.value === value) this.kept.delete(key);
    });
    return value;
  }

  /** Forgets every kept read but those under `keep`. */
  forget(keep: readonly string[] = []): void {
    for (const key of [...this.kept.keys()]) if (!keep.includes(key)) this.kept.delete(key);
  }
}
