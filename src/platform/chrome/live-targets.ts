import { call, CdpTimeoutError, readEmbedderData, type CdpConnection, type TargetInfo } from './cdp-connection';

// The browser's tabs and pages as the warm service keeps them: filled once by Chrome's target
// discovery and kept current by its events (created, info changed — title, address —, destroyed),
// so a snapshot reads memory instead of asking Chrome about every tab again.
//
// What the events do not say is looked at by a check (one Target.getTargets call for tabs and
// pages together), on a timer and before a read when memory may be behind. Seen on Chromium 156:
// a tab target's strip facts (position, selected, pinned) come only when the tab is created,
// nothing when the user selects or drags a tab or moves it to another window; and a page's title
// comes with its address when a navigation commits — before the document has set it — and
// never when the document sets it later. So a page that navigated shows its address as title
// until a check reads the real one: a read checks first while such a page is younger than
// TITLE_WAIT_MS, and the timer catches titles that scripts change later. A tab's window is
// asked once (Browser.getWindowForTarget) and kept; a check that finds a tab's strip position
// changed asks again for that tab (a move to another window changes it, unless the tab lands at
// the same position: every WINDOW_RECHECK_EVERY-th check asks for all). A tab opened or closed
// moves its neighbours, so the next read checks first.

/** How often the strip facts and windows are checked while the service runs. */
export const LIVE_CHECK_INTERVAL_MS = 1_000;
/** Every this many checks, every tab's window is asked again (a move that kept the tab's position). */
const WINDOW_RECHECK_EVERY = 10;
/** How long after a navigation a page still showing its address as title is read again before a snapshot. */
const TITLE_WAIT_MS = 10_000;

/** Chrome's title for a document that has not set one (yet): its address without the scheme. */
const untitled = (p: TargetInfo) => p.title === '' || p.url.includes(p.title);

interface LiveTab {
  info: TargetInfo;
  /** Chrome reports a tab's strip facts on creation; a tab target without them is confirmed by a check. */
  confirmed: boolean;
}

export class LiveTargets {
  private readonly tabMap = new Map<string, LiveTab>();
  private readonly pageMap = new Map<string, TargetInfo>();
  private readonly windowOfTab = new Map<string, number | null>();
  /** Pages that navigated and show no title of their own yet → when they navigated. */
  private readonly titlePending = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: Array<() => void> = [];
  /** Set when memory may disagree with the browser in what events do not report: the next read checks first. */
  private stale = false;
  private checking: Promise<void> | null = null;
  private checks = 0;
  /** While Chrome announces the targets that exist already (before setDiscoverTargets answers). */
  private announcing = true;
  private observer: ((live: string[], active: string[]) => void) | null = null;

  private constructor(private readonly conn: CdpConnection) {}

  /** Starts discovery on `conn`: Chrome then announces every existing target. Throws when Chrome refuses it. */
  static async start(conn: CdpConnection): Promise<LiveTargets> {
    const live = new LiveTargets(conn);
    live.listen('Target.targetCreated', (p: { targetInfo: TargetInfo }) => live.created(p.targetInfo));
    live.listen('Target.targetInfoChanged', (p: { targetInfo: TargetInfo }) => live.changed(p.targetInfo));
    live.listen('Target.targetDestroyed', (p: { targetId: string }) => live.destroyed(p.targetId));
    try {
      await call(conn, 'Target.setDiscoverTargets', { discover: true, filter: [{ type: 'tab' }, { type: 'page' }] });
    } catch (e) {
      if (e instanceof CdpTimeoutError) throw e;
      // A Chrome without target filters has no tab targets either: its pages are its tabs.
      await call(conn, 'Target.setDiscoverTargets', { discover: true });
    }
    live.announcing = false;
    return live;
  }

  stop(): void {
    for (const off of this.unsubscribe.splice(0)) off();
    this.listeners.clear();
  }

  /** Tab targets with strip facts or confirmed by a check (Chrome also announces tab targets of its own UI). */
  get tabs(): TargetInfo[] {
    return [...this.tabMap.values()].filter((t) => t.confirmed).map((t) => t.info);
  }

  get pages(): ReadonlyMap<string, TargetInfo> {
    return this.pageMap;
  }

  /** Called after every change the events or a check bring; returns the function that stops it. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Called with the tabs and the selected ones after every check (the tab clock). */
  observe(fn: ((live: string[], active: string[]) => void) | null): void {
    this.observer = fn;
  }

  /** DeskPilot changed what events do not report (moved, grouped, pinned tabs): the next read checks first. */
  markStale(): void {
    this.stale = true;
  }

  /** DeskPilot selected this page's tab: it is the selected one of its window now. */
  selected(pageTabId: string): void {
    const tab = this.tabMap.get(pageTabId);
    const strip = tab && readEmbedderData(tab.info);
    const windowId = this.windowOfTab.get(pageTabId);
    if (!tab || !strip || windowId === undefined) return this.markStale();
    for (const [id, t] of this.tabMap) {
      const d = readEmbedderData(t.info);
      if (d && this.windowOfTab.get(id) === windowId) t.info = { ...t.info, embedderData: { ...d, tabActive: id === pageTabId } };
    }
    this.notify();
  }

  /** Waits for work under way, and checks now when memory may be behind (marked stale, a tab to confirm, a title to read). */
  async settle(): Promise<void> {
    if (this.checking) await this.checking.catch(() => undefined);
    const now = Date.now();
    for (const [id, at] of this.titlePending) if (now - at > TITLE_WAIT_MS) this.titlePending.delete(id);
    if (this.stale || this.titlePending.size > 0 || [...this.tabMap.values()].some((t) => !t.confirmed)) await this.check();
  }

  /** The window of each tab: asked once per tab, then kept until a check finds the tab moved. null: gone meanwhile. */
  async windowsOf(tabIds: readonly string[]): Promise<Array<number | null>> {
    const unknown = tabIds.filter((id) => !this.windowOfTab.has(id));
    if (unknown.length) {
      const found = await Promise.all(unknown.map((id) => windowOf(this.conn, id)));
      unknown.forEach((id, i) => {
        // A tab destroyed while its window was asked stays out.
        if (this.tabMap.has(id) || this.pageMap.has(id)) this.windowOfTab.set(id, found[i]!);
      });
    }
    return tabIds.map((id) => this.windowOfTab.get(id) ?? null);
  }

  /**
   * One look at the tab strip and the pages: each tab's position, selected and pinned flags,
   * each page's title; the windows of tabs whose position changed are asked again.
   */
  check(): Promise<void> {
    this.checking ??= this.runCheck().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async runCheck(): Promise<void> {
    this.stale = false;
    const all = ++this.checks % WINDOW_RECHECK_EVERY === 0;
    const { tabs: infos, pages } = await tabsAndPages(this.conn);
    const windowsBefore = new Map(this.windowOfTab);
    let changed = false;
    for (const page of pages) {
      const had = this.pageMap.get(page.targetId);
      if (!had || had.title !== page.title || had.url !== page.url) changed = true;
      this.pageMap.set(page.targetId, page);
      if (!untitled(page)) this.titlePending.delete(page.targetId);
    }
    const seen = new Set<string>();
    for (const info of infos) {
      seen.add(info.targetId);
      const had = this.tabMap.get(info.targetId);
      const before = had ? readEmbedderData(had.info) : null;
      const now = readEmbedderData(info);
      if (!had || !had.confirmed || JSON.stringify(before) !== JSON.stringify(now)) changed = true;
      if (before?.tabStripIndex !== now?.tabStripIndex) this.windowOfTab.delete(info.targetId);
      this.tabMap.set(info.targetId, { info: { ...(had?.info ?? {}), ...info }, confirmed: true });
    }
    // Announced tab targets a check does not list are Chrome's own (or gone): never tabs.
    for (const [id, t] of this.tabMap) {
      if (!seen.has(id) && !t.confirmed) this.tabMap.delete(id);
    }
    if (all) this.windowOfTab.clear();
    const tabIds = [...this.tabMap.keys()];
    const windows = await this.windowsOf(tabIds);
    if (tabIds.some((id, i) => windowsBefore.has(id) && windowsBefore.get(id) !== windows[i])) changed = true;
    this.observer?.(
      tabIds,
      tabIds.filter((id) => readEmbedderData(this.tabMap.get(id)!.info)?.tabActive === true),
    );
    if (changed) this.notify();
  }

  private listen(event: string, fn: (params: any) => void): void {
    this.conn.on(event, fn);
    this.unsubscribe.push(() => this.conn.removeListener(event, fn));
  }

  private created(info: TargetInfo): void {
    if (info.type === 'page') {
      this.pageMap.set(info.targetId, info);
      if (!this.announcing && untitled(info)) this.titlePending.set(info.targetId, Date.now());
    } else if (info.type === 'tab') {
      this.tabMap.set(info.targetId, { info, confirmed: readEmbedderData(info) !== null });
      // Its neighbours moved one place, and it may be the selected one now.
      if (!this.announcing) this.markStale();
    } else return;
    this.notify();
  }

  private changed(info: TargetInfo): void {
    if (info.type === 'page') {
      const before = this.pageMap.get(info.targetId);
      this.pageMap.set(info.targetId, info);
      if (!untitled(info)) this.titlePending.delete(info.targetId);
      else if (before?.url !== info.url) this.titlePending.set(info.targetId, Date.now());
      // Most updates only say that someone attached or detached (DeskPilot itself, for summaries): nothing to tell.
      if (before && before.title === info.title && before.url === info.url) return;
    } else if (info.type === 'tab' && this.tabMap.has(info.targetId)) {
      const t = this.tabMap.get(info.targetId)!;
      const before = JSON.stringify(readEmbedderData(t.info));
      // Keep the strip facts an update without them would drop.
      t.info = { ...info, embedderData: info.embedderData ?? t.info.embedderData };
      if (readEmbedderData(info)) t.confirmed = true;
      if (before === JSON.stringify(readEmbedderData(t.info))) return;
    } else return;
    this.notify();
  }

  private destroyed(id: string): void {
    const tab = this.tabMap.get(id);
    const wasPage = this.pageMap.delete(id);
    this.titlePending.delete(id);
    this.tabMap.delete(id);
    this.windowOfTab.delete(id);
    if (!tab && !wasPage) return;
    // Its neighbours moved one place back, and Chrome may have selected another tab of that window.
    if (tab) this.markStale();
    this.notify();
  }

  private notify(): void {
    for (const fn of this.listeners) fn();
  }
}

/** Tabs (with their strip facts) and pages in one call; tabs [] from a Chrome that has none. */
async function tabsAndPages(conn: CdpConnection): Promise<{ tabs: TargetInfo[]; pages: TargetInfo[] }> {
  let infos: TargetInfo[];
  try {
    infos = (await call(conn, 'Target.getTargets', { filter: [{ type: 'tab' }, { type: 'page' }] })).targetInfos;
  } catch (e) {
    if (e instanceof CdpTimeoutError) throw e;
    infos = (await call(conn, 'Target.getTargets')).targetInfos; // no target filters: no tab targets either
  }
  return { tabs: infos.filter((t) => t.type === 'tab'), pages: infos.filter((t) => t.type === 'page') };
}

/** Every tab target with its strip facts, one call; [] from a Chrome that has none. */
export async function tabTargets(conn: CdpConnection): Promise<TargetInfo[]> {
  try {
    const { targetInfos } = await call(conn, 'Target.getTargets', { filter: [{ type: 'tab' }] });
    return (targetInfos as TargetInfo[]).filter((t) => t.type === 'tab');
  } catch (e) {
    if (e instanceof CdpTimeoutError) throw e;
    return []; // a Chrome that does not know target filters has no tab targets either
  }
}

export async function windowOf(conn: CdpConnection, targetId: string): Promise<number | null> {
  try {
    return (await call(conn, 'Browser.getWindowForTarget', { targetId })).windowId;
  } catch (e) {
    if (e instanceof CdpTimeoutError) throw e;
    return null;
  }
}
