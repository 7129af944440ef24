// When each tab was first seen and last used (selected), as the warm service observes it: Chrome
// reports neither over DevTools, and the companion extension may be missing. The service samples
// which tab is selected in each window every second (one Target.getTargets call), so a tab
// used for less than one sampling interval may go unnoticed; that is the price of not needing
// the extension. A tab first seen after watching began and never selected since counts as used
// when it was opened, as Chrome's own lastAccessed does.

export class TabClock {
  /** The first look: a tab with no time was not used since then. null until the first look. */
  private started: number | null = null;
  private readonly firstSeen = new Map<string, number>();
  private readonly lastActive = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  get startedAt(): number | null {
    return this.started;
  }

  /**
   * One look at the tabs: `live` every tab id that exists, `active` the selected tab of each
   * window. Tabs no longer live are forgotten.
   */
  observe(live: Iterable<string>, active: Iterable<string>): void {
    const at = this.now();
    this.started ??= at;
    const alive = new Set(live);
    for (const id of alive) if (!this.firstSeen.has(id)) this.firstSeen.set(id, at);
    for (const id of active) if (alive.has(id)) this.lastActive.set(id, at);
    for (const id of this.firstSeen.keys()) {
      if (!alive.has(id)) {
        this.firstSeen.delete(id);
        this.lastActive.delete(id);
      }
    }
  }

  /** ms since the epoch, or null: not used since watching began (and open since before). */
  lastUsed(id: string): number | null {
    const active = this.lastActive.get(id);
    if (active !== undefined) return active;
    const seen = this.firstSeen.get(id);
    // The first look finds tabs that were open already: their last use is before it, unknown.
    return seen !== undefined && this.started !== null && seen > this.started ? seen : null;
  }

  /** When this tab was first seen, or null when never. */
  firstSeenAt(id: string): number | null {
    return this.firstSeen.get(id) ?? null;
  }
}
