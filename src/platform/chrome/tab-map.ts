import { call, mapLimit, withTimeout, type CdpConnection, type CdpListener, type TargetInfo } from './cdp-connection';

// Chrome reports tab-strip facts on `tab` targets but everything else (title, activate, close,
// evaluate) on their `page` targets, and nothing links the two ids. The only exact link is to
// attach to the tab and let it auto-attach its page (~2 ms per tab, done in parallel), so the
// result is cached per tab and re-checked against the live page list on every use: a page that
// is gone (prerender activation, discard, crash) sends its tab back through the attach path.

const ATTACH_CONCURRENCY = 16;

export class TabPageMap {
  private readonly pageByTab = new Map<string, string>();
  /** Whether a pair was learnt or dropped since `takeChanged` last asked. */
  private changed = false;

  constructor(
    private readonly conn: CdpConnection,
    private readonly timeoutMs = 1500,
  ) {}

  /** tab targetId → page targetId for every tab that could be mapped to a page in `pages`. */
  async map(tabs: readonly TargetInfo[], pages: ReadonlyMap<string, TargetInfo>): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    const claimed = new Set<string>();
    const unresolved: TargetInfo[] = [];
    for (const tab of tabs) {
      const cached = this.pageByTab.get(tab.targetId);
      if (cached !== undefined && pages.has(cached) && !claimed.has(cached)) {
        result.set(tab.targetId, cached);
        claimed.add(cached);
      } else {
        unresolved.push(tab);
      }
    }

    const live = new Set(tabs.map((t) => t.targetId));
    for (const tabId of this.pageByTab.keys()) {
      if (!live.has(tabId)) {
        this.pageByTab.delete(tabId);
        this.changed = true;
      }
    }
    if (unresolved.length === 0) return result;

    const found = await mapLimit(unresolved, ATTACH_CONCURRENCY, (tab) =>
      pageOfTab(this.conn, tab.targetId, this.timeoutMs).catch(() => null),
    );
    const failed: TargetInfo[] = [];
    unresolved.forEach((tab, i) => {
      const pageId = found[i];
      if (pageId && this.pageByTab.get(tab.targetId) !== pageId) {
        this.pageByTab.set(tab.targetId, pageId);
        this.changed = true;
      }
      if (pageId && pages.has(pageId) && !claimed.has(pageId)) {
        result.set(tab.targetId, pageId);
        claimed.add(pageId);
      } else if (!pageId) {
        failed.push(tab);
      }
      // A page id missing from `pages` belongs to a tab created after the snapshot: next list.
    });

    // Last resort for a tab whose attach failed: its page if exactly one unclaimed page matches.
    // Not cached, so the exact path is tried again next time.
    for (const tab of failed) {
      const candidates = [...pages.values()].filter((p) => !claimed.has(p.targetId) && p.url === tab.url && p.title === tab.title);
      if (candidates.length === 1) {
        result.set(tab.targetId, candidates[0]!.targetId);
        claimed.add(candidates[0]!.targetId);
      }
    }
    return result;
  }

  /** Pairs learnt by an earlier process (tab-map-file.ts); each is checked against the live pages on use, like any other. */
  seed(pairs: Iterable<[string, string]>): void {
    for (const [tab, page] of pairs) if (!this.pageByTab.has(tab)) this.pageByTab.set(tab, page);
  }

  pairs(): IterableIterator<[string, string]> {
    return this.pageByTab.entries();
  }

  /** Whether the map changed since the last call (so a caller keeping a copy knows when to write it). */
  takeChanged(): boolean {
    const c = this.changed;
    this.changed = false;
    return c;
  }

  /** The tab target holding this page, when mapped before. */
  tabOf(pageId: string): string | undefined {
    for (const [tab, page] of this.pageByTab) if (page === pageId) return tab;
    return undefined;
  }

  get size(): number {
    return this.pageByTab.size;
  }
}

export async function pageOfTab(conn: CdpConnection, tabId: string, timeoutMs: number): Promise<string | null> {
  const { sessionId } = await call(conn, 'Target.attachToTarget', { targetId: tabId, flatten: true }, { timeoutMs });
  const event = `Target.attachedToTarget.${sessionId}`;
  let listener: CdpListener = () => undefined;
  const child = new Promise<string>((resolve) => {
    listener = (params: { targetInfo?: TargetInfo }) => {
      const info = params.targetInfo;
      // A tab can also hold a prerendering page (subtype "prerender"); only the shown one counts.
      if (info && info.type === 'page' && !info.subtype) resolve(info.targetId);
    };
    conn.on(event, listener);
  });
  try {
    await call(conn, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, { sessionId, timeoutMs });
    return await withTimeout(child, timeoutMs, () => new Error(`tab ${tabId} reported no page`));
  } finally {
    conn.removeListener(event, listener);
    // Detaching the tab session also detaches the page session it auto-attached.
    await call(conn, 'Target.detachFromTarget', { sessionId }, { timeoutMs }).catch(() => undefined);
  }
}
