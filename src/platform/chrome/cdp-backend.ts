// Over 400 lines on purpose: CdpChromeBackend is the one ChromeBackend over CDP, and its parts
// share one private Session (the browser connection with its tab map, guard, companion link and
// live targets) that is dropped as a whole when the socket closes — connecting and reconnecting,
// listing tabs in strip order, closing and waiting until they are gone. What needs no session
// state already lives beside it (tab-manager.ts, watched-open.ts, live-targets.ts, companion.ts).
// The listing was being reworked while the layers were reshaped; splitting the session's life
// from the listing is the next cut once that settles.

import path from 'node:path';
import { ChromeUnavailableError, DeskPilotError, TabGoneError, errorMessage } from '../../engine/errors';
import type { BrowserWindowTarget, ChromeBackend, ChromeTab, CloseTabsResult, CompanionStatus, MoveDestination, OpenTabsWhere, TabChanges, TabGroupRef, TabListing, TabPlace, TabToOpen } from '../../engine/ports';
import { call, CdpTimeoutError, isNoTargetError, readEmbedderData, sleep, type CdpConnection, type TargetInfo } from './cdp-connection';
import { LIVE_CHECK_INTERVAL_MS, LiveTargets, tabTargets, windowOf } from './live-targets';
import { connectChrome, DEFAULT_CONNECT_TIMEOUT_MS, type BrowserConnection, type ConnectOptions } from './connect';
import { AllTabsGuard } from './all-tabs-guard';
import { DevtoolsGuard, refusalMessage } from './devtools-guard';
import { defaultUserDataDirs } from './discover';
import { hostPort } from './endpoint-url';
import { evaluateInPage, TIMED_OUT } from './evaluate';
import { SummaryCache, type SummaryEntry } from './summary';
import { TabPageMap } from './tab-map';
import { BrowserRunCache } from './browser-run-cache';
import { z } from 'zod';
import { isListablePage, orderTabs, type TabRecord } from './tab-order';
import { TabsCloseInterruptedError, TabsNotClosedError } from './tabs-not-closed-error';
import { CompanionLink } from './companion';
import { PageTextIndex } from './page-text-index';
import { TabClock } from './tab-clock';
import * as tabManager from './tab-manager';
import { URL_REFUSED } from './watched-open';
import { openTab } from './window-targets';

export interface CdpChromeBackendOptions {
  /** http://host:port or ws://…/devtools/browser/…; when set it is the only source tried. */
  chromeUrl?: string;
  allowRemote?: boolean;
  /** DeskPilot's own Chrome profile; searched first for DevToolsActivePort. */
  profileDir: string;
  extraUserDataDirs?: string[];
  connectTimeoutMs?: number;
  /** Overrides the OS's usual browser profile folders (tests use it to search only their own). */
  defaultUserDataDirs?: string[];
  /** How long closeTabs waits for the tabs to disappear. */
  closeTimeoutMs?: number;
  /** How to add the companion extension, said when it is missing (default: companionHelp()). */
  companionHelp?: string;
  /**
   * A private folder where what this process learnt about the running Chrome (which page each
   * tab holds, page summaries) is kept for the next process (browser-run-cache.ts).
   */
  runCacheDir?: string;
}

export function createCdpChromeBackend(options: CdpChromeBackendOptions): CdpChromeBackend {
  return new CdpChromeBackend(options);
}

/** Everything tied to one browser connection; dropped as a whole when the socket closes. */
interface Session {
  conn: CdpConnection;
  browserWsUrl: string;
  source: string;
  tabMap: TabPageMap;
  summaries: SummaryCache;
  /** Keeps tabs DeskPilot opens away from this browser's DevTools endpoint. */
  guard: DevtoolsGuard;
  /** Orders tabs whose strip position Chrome does not report. */
  firstSeen: Map<string, number>;
  nextSeen: number;
  description?: Promise<string>;
  /** The companion extension's worker, found (and kept attached) on first use. */
  companion: CompanionLink;
  textIndex: PageTextIndex;
  /** The tabs kept current from Chrome's events, while the warm service watches (watchTabs). */
  live: LiveTargets | null;
  /** Every tab kept from the DevTools endpoint, while watching (all-tabs-guard.ts). */
  tabGuard: AllTabsGuard | null;
}

/** Asks the window of each id; null for one that is gone. */
type WindowsOf = (ids: readonly string[]) => Promise<Array<number | null>>;

/** While watching and not connected, every this many checks DeskPilot tries to connect to Chrome again. */
const RECONNECT_EVERY_CHECKS = 5;

const ACTIVE_PROBE_TIMEOUT_MS = 300;
const BRAND_PROBE_TIMEOUT_MS = 500;
const CLOSE_POLL_MS = 25;

export class CdpChromeBackend implements ChromeBackend {
  private current: Session | null = null;
  private connecting: Promise<Session> | null = null;
  private disposed = false;
  /** Set while the warm service watches the tabs (watchTabs). */
  private clock: TabClock | null = null;
  private watching = false;
  private readonly tabListeners = new Set<() => void>();
  /** Test hook: how many times the tabs were listed by asking Chrome about every one (not from memory). */
  listingRounds = 0;
  private readonly runCache: { tabPages: BrowserRunCache<string>; summaries: BrowserRunCache<SummaryEntry>; browser: BrowserRunCache<string> } | null;

  constructor(
    private readonly options: CdpChromeBackendOptions,
    /** Seam for unit tests, which script a fake browser instead of discovering a real one. */
    private readonly connect: (o: ConnectOptions) => Promise<BrowserConnection> = connectChrome,
  ) {
    const dir = options.runCacheDir;
    this.runCache = dir
      ? {
          tabPages: new BrowserRunCache(path.join(dir, 'tab-pages.json'), z.string().min(1).max(200)),
          summaries: new BrowserRunCache(path.join(dir, 'summaries.json'), z.strictObject({ url: z.string().max(10_000), text: z.string().max(10_000).nullable() })),
          // What the browser is ("Chromium 156.0.… at 127.0.0.1:9222"): asking costs a page evaluation or three.
          browser: new BrowserRunCache(path.join(dir, 'browser.json'), z.string().min(1).max(500)),
        }
      : null;
  }

  /** Where the live connection came from, or null when not connected (for status lines). */
  get connectedVia(): string | null {
    return this.current?.source ?? null;
  }

  async describe(): Promise<string> {
    return this.run(async (s) => {
      s.description ??= this.describeSession(s).then(
        (d) => {
          // A brand guessed from the version string is asked again next time (a page that tells may be open by then).
          if (!d.certain) s.description = undefined;
          return d.text;
        },
        (e: unknown) => {
          s.description = undefined;
          throw e;
        },
      );
      return s.description;
    });
  }

  async listTabs(): Promise<ChromeTab[]> {
    return this.run(async (s) => orderTabs(await this.tabRecords(s)));
  }

  async summarize(targetIds: string[], timeoutMs: number): Promise<Map<string, string | null>> {
    return this.run(async (s) => {
      // Kept per page and address: a page is summarised once per load while the service runs.
      const pages = s.live ? s.live.pages : await pageTargets(s.conn);
      s.summaries.retain(new Set(pages.keys()));
      const wanted = [...new Set(targetIds)];
      const present = wanted.filter((id) => pages.has(id)).map((id) => ({ targetId: id, url: pages.get(id)!.url }));
      const found = await s.summaries.summarize(s.conn, present, timeoutMs);
      if (this.runCache && s.summaries.takeChanged()) await this.runCache.summaries.save(s.browserWsUrl, s.summaries.entries());
      return new Map(wanted.map((id) => [id, found.get(id) ?? null]));
    });
  }

  async activateTab(targetId: string): Promise<void> {
    return this.run(async (s) => {
      try {
        await call(s.conn, 'Target.activateTarget', { targetId });
      } catch (e) {
        if (isNoTargetError(e)) throw new TabGoneError(targetId);
        throw e;
      }
      const tabId = s.tabMap.tabOf(targetId);
      if (s.live) {
        if (tabId) s.live.selected(tabId);
        else s.live.markStale();
      }
    });
  }

  async navigationRefusal(url: string): Promise<string | null> {
    return this.run(async (s) => {
      const refusal = await s.guard.refusal(url);
      return refusal && refusalMessage(refusal);
    });
  }

  async openUrl(url: string, where?: BrowserWindowTarget): Promise<{ targetId: string }> {
    return this.run(async (s) => {
      const refusal = await s.guard.refusal(url);
      if (refusal) throw new DeskPilotError(refusalMessage(refusal), URL_REFUSED);
      return openTab(this.tabSession(s, true), url, where);
    });
  }

  async closeTabs(targetIds: string[]): Promise<CloseTabsResult> {
    return this.run(async (s) => {
      const wanted = [...new Set(targetIds)];
      const pages = s.live ? s.live.pages : await pageTargets(s.conn);
      // Only tabs: an id of a worker or extension page is never closed through this call.
      const present = wanted.filter((id) => pages.has(id));
      const missing = wanted.filter((id) => !pages.has(id));
      const outcomes = await Promise.allSettled(present.map((targetId) => call(s.conn, 'Target.closeTarget', { targetId })));
      const requested: string[] = [];
      const failed: string[] = [];
      let drop: unknown = null;
      outcomes.forEach((o, i) => {
        const id = present[i]!;
        if (o.status === 'fulfilled') requested.push(id);
        else if (isNoTargetError(o.reason)) missing.push(id);
        else {
          failed.push(id);
          if (this.dropped(s, o.reason)) drop ??= o.reason;
        }
      });
      const timeoutMs = this.options.closeTimeoutMs ?? 5000;
      // closeTarget answers before the tab is gone; callers act on the tab list next.
      let stillOpen: string[] = [];
      if (drop === null) {
        try {
          stillOpen = await waitUntilGone(s, requested, timeoutMs);
        } catch (e) {
          if (!this.dropped(s, e)) throw e;
          drop = e;
        }
      }
      // Chrome went away part-way: the tabs it had accepted to close are closed (its answer comes
      // as it closes them, and without Chrome no tab is left); the others were never closed by us.
      if (drop !== null) throw new TabsCloseInterruptedError(hostPort(s.browserWsUrl), errorMessage(drop), requested, failed, missing);
      const closed = requested.filter((id) => !stillOpen.includes(id));
      if (stillOpen.length > 0 || failed.length > 0) throw new TabsNotClosedError([...stillOpen, ...failed], closed, missing, timeoutMs);
      return { closed, missing };
    });
  }

  async listTabsInDetail(): Promise<TabListing> {
    return this.run((s) => tabManager.listInDetail(this.tabSession(s, false), this.clock));
  }

  async companion(): Promise<CompanionStatus> {
    return this.run((s) => s.companion.status(true));
  }

  async placesOf(targetIds: string[]): Promise<Map<string, TabPlace>> {
    return this.run((s) => tabManager.placesOf(this.tabSession(s, true), targetIds));
  }

  async reloadTabs(targetIds: string[], ignoreCache: boolean): Promise<{ done: string[]; missing: string[] }> {
    return this.changing((s) => tabManager.reloadTabs(this.tabSession(s, true), targetIds, ignoreCache));
  }

  async setPinned(targetIds: string[], pinned: boolean): Promise<TabChanges<boolean>> {
    return this.changing((s) => tabManager.setTabState(this.tabSession(s, true), targetIds, 'pinned', pinned));
  }

  async setMuted(targetIds: string[], muted: boolean): Promise<TabChanges<boolean>> {
    return this.changing((s) => tabManager.setTabState(this.tabSession(s, true), targetIds, 'muted', muted));
  }

  async groupTabs(targetIds: string[], title: string, color?: string): Promise<TabChanges<TabGroupRef | null> & { group: TabGroupRef }> {
    return this.changing((s) => tabManager.groupTabs(this.tabSession(s, true), targetIds, title, color));
  }

  async ungroupTabs(targetIds: string[]): Promise<TabChanges<TabGroupRef | null>> {
    return this.changing((s) => tabManager.ungroupTabs(this.tabSession(s, true), targetIds));
  }

  async regroupTabs(entries: Array<{ targetId: string; group: TabGroupRef | null }>): Promise<{ done: string[]; missing: string[] }> {
    return this.changing((s) => tabManager.regroupTabs(this.tabSession(s, true), entries));
  }

  async moveTabs(targetIds: string[], to: MoveDestination): Promise<TabChanges<TabPlace> & { windowId: number }> {
    return this.changing((s) => tabManager.moveTabs(this.tabSession(s, true), targetIds, to));
  }

  async placeTabs(entries: Array<{ targetId: string; place: TabPlace }>): Promise<{ done: string[]; missing: string[] }> {
    return this.changing((s) => tabManager.placeTabs(this.tabSession(s, true), entries));
  }

  async openTabs(tabs: TabToOpen[], opts: OpenTabsWhere): Promise<Array<{ targetId: string } | { error: string }>> {
    return this.changing((s) => tabManager.openTabs(this.tabSession(s, true), tabs, opts));
  }

  async searchPageText(targetIds: string[], query: string): Promise<Map<string, string>> {
    return this.run((s) => tabManager.searchPageText(this.tabSession(s, false), targetIds, query));
  }

  /** The page-text index's figures from the last search (for the bench). */
  get pageTextStats() {
    return this.current?.textIndex.stats ?? null;
  }

  /**
   * The warm service's way of holding the tabs: from now on every connection to Chrome keeps
   * the tab list current from Chrome's target events, so a snapshot reads memory; what the
   * events do not report (which tab is selected, the strip order, a tab moved to another
   * window) is checked every `checkIntervalMs` (0: never, for tests), and each check also
   * records when each tab is first seen and last used (tab ages without the companion
   * extension). While Chrome is away it is looked for again every few checks. Returns the
   * function that stops watching (the times recorded so far stay).
   */
  watchTabs(checkIntervalMs = LIVE_CHECK_INTERVAL_MS): () => void {
    this.clock ??= new TabClock();
    this.watching = true;
    if (this.current && !this.current.live) void this.goLive(this.current).catch(() => undefined);
    let ticks = 0;
    const tick = () => {
      if (this.disposed) return;
      const s = this.current;
      if (s?.live) return void s.live.check().catch(() => undefined);
      // Not connected (Chrome not running right now): look for it now and then.
      if (!s && ticks++ % RECONNECT_EVERY_CHECKS === 0) void this.session().catch(() => undefined);
    };
    const timer = checkIntervalMs > 0 ? setInterval(tick, checkIntervalMs) : null;
    timer?.unref?.();
    if (timer) tick();
    return () => {
      if (timer) clearInterval(timer);
      this.watching = false;
      const s = this.current;
      s?.live?.stop();
      s?.tabGuard?.stop();
      if (s) [s.live, s.tabGuard] = [null, null];
    };
  }

  /** `fn` after each change of the tabs seen while watching (a tab opened, closed, retitled, selected, moved; Chrome gone). */
  onTabsChanged(fn: () => void): () => void {
    this.tabListeners.add(fn);
    return () => this.tabListeners.delete(fn);
  }

  private tabsChanged(): void {
    for (const fn of this.tabListeners) fn();
  }

  private async goLive(s: Session): Promise<void> {
    const live = await LiveTargets.start(s.conn);
    if (this.current !== s || s.live) return live.stop();
    s.live = live;
    s.tabGuard = await AllTabsGuard.start(s.conn, s.guard).catch(() => null);
    live.onChange(() => this.tabsChanged());
    const clock = this.clock;
    if (clock) live.observe((ids, active) => clock.observe(ids, active));
    this.tabsChanged();
  }

  /** A tab-manager operation: what it changes (windows, order, pins) is not in Chrome's events, so the next read checks. */
  private changing<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    return this.run(async (s) => {
      try {
        return await fn(s);
      } finally {
        s.live?.markStale();
      }
    });
  }

  /** The tab manager's view; `fresh`: checked with Chrome first (it matches the extension's tabs to these right after). */
  private tabSession(s: Session, fresh: boolean): tabManager.TabSession {
    return { conn: s.conn, companion: s.companion, guard: s.guard, textIndex: s.textIndex, records: () => this.tabRecords(s, fresh) };
  }

  /** Closes the websocket only: the browser and its tabs stay as they are. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const s = this.current ?? (await this.connecting?.catch(() => null)) ?? null;
    this.current = null;
    if (s) {
      s.live?.stop();
      s.companion.dispose();
      await s.conn.close().catch(() => undefined);
    }
  }

  private async session(): Promise<Session> {
    if (this.disposed) throw new ChromeUnavailableError('The Chrome connection was closed (the backend was disposed); create a new one.');
    if (this.current) return this.current;
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<Session> {
    const o = this.options;
    const { conn, browserWsUrl, source } = await this.connect({
      chromeUrl: o.chromeUrl,
      allowRemote: o.allowRemote,
      userDataDirs: [o.profileDir, ...(o.extraUserDataDirs ?? []), ...(o.defaultUserDataDirs ?? defaultUserDataDirs())],
      timeoutMs: o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    const s: Session = {
      conn,
      browserWsUrl,
      source,
      tabMap: new TabPageMap(conn),
      summaries: new SummaryCache(),
      guard: new DevtoolsGuard({ browserWsUrl, otherNames: [o.chromeUrl] }),
      firstSeen: new Map(),
      nextSeen: 0,
      companion: new CompanionLink(conn, o.companionHelp),
      textIndex: new PageTextIndex(),
      live: null,
      tabGuard: null,
    };
    if (this.runCache) {
      const [pairs, summaries] = await Promise.all([this.runCache.tabPages.load(browserWsUrl), this.runCache.summaries.load(browserWsUrl)]);
      s.tabMap.seed(pairs);
      s.summaries.seed(summaries);
    }
    // A restarted Chrome has new ids and a new port: forget everything and rediscover lazily.
    conn.on('disconnect', () => {
      s.live?.stop();
      s.tabGuard?.stop();
      if (this.current !== s) return;
      this.current = null;
      if (this.watching) this.tabsChanged();
    });
    if (this.disposed) {
      await conn.close().catch(() => undefined);
      throw new ChromeUnavailableError('The Chrome connection was closed (the backend was disposed); create a new one.');
    }
    this.current = s;
    // Watching: the list is filled by discovery before the first answer, so no listing round is needed.
    if (this.watching) await this.goLive(s).catch(() => undefined);
    return s;
  }

  private async run<T>(fn: (s: Session) => Promise<T>): Promise<T> {
    const s = await this.session();
    try {
      return await fn(s);
    } catch (e) {
      if (e instanceof DeskPilotError) throw e;
      if (this.dropped(s, e)) {
        throw new ChromeUnavailableError(
          `The connection to Chrome at ${hostPort(s.browserWsUrl)} dropped (${errorMessage(e)}); retry and DeskPilot will reconnect, or start Chrome with \`deskpilot chrome launch\`.`,
        );
      }
      if (e instanceof CdpTimeoutError) {
        throw new ChromeUnavailableError(
          `Chrome at ${hostPort(s.browserWsUrl)} did not answer ${e.method} within ${e.timeoutMs / 1000} s; if it is hung, restart it.`,
        );
      }
      throw e;
    }
  }

  /**
   * Whether `e` means the browser connection of `s` is gone (the socket closed, or Chrome with it).
   * A write can fail (EPIPE, ECONNRESET) before the socket's close has been seen.
   */
  private dropped(s: Session, e: unknown): boolean {
    return this.current !== s || /websocket connection closed|not open|EPIPE|ECONNRESET/i.test(errorMessage(e));
  }

  /** Every tab: from memory while watching (checked first when `fresh`), else asked of Chrome tab by tab. */
  private async tabRecords(s: Session, fresh = false): Promise<TabRecord[]> {
    let tabs: TargetInfo[];
    let pages: ReadonlyMap<string, TargetInfo>;
    let windows: WindowsOf;
    const live = s.live;
    if (live) {
      await (fresh ? live.check() : live.settle());
      [tabs, pages, windows] = [live.tabs, live.pages, (ids) => live.windowsOf(ids)];
    } else {
      this.listingRounds++;
      [tabs, pages] = await Promise.all([tabTargets(s.conn), pageTargets(s.conn)]);
      // Asked every time (~3 ms for 100 tabs): a tab dragged to another window keeps its ids.
      windows = (ids) => Promise.all(ids.map((id) => windowOf(s.conn, id)));
    }
    const records = tabs.length > 0 ? await this.recordsFromTabs(s, tabs, pages, windows) : await this.recordsFromPages(s, pages, windows);
    const alive = new Set<string>();
    for (const t of tabs) alive.add(t.targetId);
    for (const id of pages.keys()) alive.add(id);
    for (const id of s.firstSeen.keys()) if (!alive.has(id)) s.firstSeen.delete(id);
    return records;
  }

  private seen(s: Session, id: string): number {
    let n = s.firstSeen.get(id);
    if (n === undefined) s.firstSeen.set(id, (n = s.nextSeen++));
    return n;
  }

  private async recordsFromTabs(s: Session, tabs: TargetInfo[], pages: ReadonlyMap<string, TargetInfo>, windowsOf: WindowsOf): Promise<TabRecord[]> {
    const pageOf = await s.tabMap.map(tabs, pages);
    if (this.runCache && s.tabMap.takeChanged()) await this.runCache.tabPages.save(s.browserWsUrl, s.tabMap.pairs());
    const mapped = tabs.filter((t) => pageOf.has(t.targetId) && isListablePage(pages.get(pageOf.get(t.targetId)!)!.url));
    const windows = await windowsOf(mapped.map((t) => t.targetId));
    const records: TabRecord[] = [];
    mapped.forEach((tab, i) => {
      const windowId = windows[i];
      if (windowId === null || windowId === undefined) return; // closed meanwhile
      const page = pages.get(pageOf.get(tab.targetId)!)!;
      const strip = readEmbedderData(tab);
      records.push({
        pageId: page.targetId,
        title: page.title,
        url: page.url,
        windowId,
        stripIndex: strip?.tabStripIndex ?? null,
        active: strip?.tabActive ?? false,
        firstSeen: this.seen(s, tab.targetId),
        tabId: tab.targetId,
        ...(strip ? { pinned: strip.tabPinned } : {}),
      });
    });
    this.clock?.observe(
      tabs.map((t) => t.targetId),
      records.filter((r) => r.active).map((r) => r.tabId!),
    );
    if (records.some((r) => r.stripIndex === null)) await markVisibleAsActive(s.conn, records.filter((r) => r.stripIndex === null));
    return records;
  }

  /** Chrome without tab targets (before ~M112): every top-level page with a window is a tab. */
  private async recordsFromPages(s: Session, pages: ReadonlyMap<string, TargetInfo>, windowsOf: WindowsOf): Promise<TabRecord[]> {
    const candidates = [...pages.values()].filter((p) => isListablePage(p.url) && !p.subtype);
    const windows = await windowsOf(candidates.map((p) => p.targetId));
    const records: TabRecord[] = [];
    candidates.forEach((page, i) => {
      const windowId = windows[i];
      if (windowId === null || windowId === undefined) return; // background pages and the like have no window
      records.push({
        pageId: page.targetId,
        title: page.title,
        url: page.url,
        windowId,
        stripIndex: null,
        active: false,
        firstSeen: this.seen(s, page.targetId),
      });
    });
    await markVisibleAsActive(s.conn, records);
    return records;
  }

  /** `certain`: the brand came from a page (navigator.userAgentData), not guessed from the version string. */
  private async describeSession(s: Session): Promise<{ text: string; certain: boolean }> {
    const kept = this.runCache && (await this.runCache.browser.load(s.browserWsUrl)).find(([k]) => k === 'description')?.[1];
    if (kept) return { text: kept, certain: true };
    const described = await this.askDescription(s);
    // Only a certain answer is kept for the next process: a guess is made again until a page tells.
    if (described.certain) await this.runCache?.browser.save(s.browserWsUrl, [['description', described.text]]);
    return described;
  }

  private async askDescription(s: Session): Promise<{ text: string; certain: boolean }> {
    const version = await call(s.conn, 'Browser.getVersion');
    const [product, number] = version.product.split('/');
    const probed = await probeBrand(s.conn);
    const brand = probed ?? (product === 'HeadlessChrome' ? 'Headless Chrome' : product || 'Chrome');
    return { text: `${brand} ${number ?? version.product} at ${hostPort(s.browserWsUrl)}`, certain: probed !== null };
  }
}

async function pageTargets(conn: CdpConnection): Promise<Map<string, TargetInfo>> {
  const { targetInfos } = await call(conn, 'Target.getTargets', { filter: [{ type: 'page' }] });
  return new Map((targetInfos as TargetInfo[]).filter((t) => t.type === 'page').map((t) => [t.targetId, t]));
}

/**
 * Without Chrome's tabActive flag, the selected tab of each window is the one whose document
 * is visible. A minimised window has none, and a hung tab answers too late to count.
 */
async function markVisibleAsActive(conn: CdpConnection, records: TabRecord[]): Promise<void> {
  const states = await Promise.all(
    records.map((r) => evaluateInPage(conn, r.pageId, 'document.visibilityState', ACTIVE_PROBE_TIMEOUT_MS).catch(() => null)),
  );
  records.forEach((r, i) => {
    r.active = states[i] === 'visible';
  });
}

/** "Chromium", "Google Chrome", "Microsoft Edge", "Brave": Browser.getVersion says "Chrome" for all. */
async function probeBrand(conn: CdpConnection): Promise<string | null> {
  let pages: TargetInfo[];
  try {
    // userAgentData exists only in secure contexts: about:blank and data: URLs never answer.
    pages = [...(await pageTargets(conn)).values()]
      .filter((p) => isListablePage(p.url) && !p.subtype && /^(https:|http:\/\/(127\.|localhost|\[::1\])|chrome:)/.test(p.url))
      .slice(0, 3);
  } catch {
    return null;
  }
  const answers = await Promise.all(
    pages.map((p) =>
      evaluateInPage(
        conn,
        p.targetId,
        'navigator.userAgentData ? navigator.userAgentData.brands.map((b) => b.brand) : null',
        BRAND_PROBE_TIMEOUT_MS,
      ).catch(() => null),
    ),
  );
  for (const answer of answers) {
    if (answer === TIMED_OUT || !Array.isArray(answer)) continue;
    const brands = answer.filter((b): b is string => typeof b === 'string' && !/not.?a.?brand/i.test(b));
    const specific = brands.find((b) => b !== 'Chromium');
    if (specific) return specific;
    if (brands.includes('Chromium')) return 'Chromium';
  }
  return null;
}

/** Polls the page list (memory while watching: Chrome's events remove them) until none of `ids` is left; returns those still open at the deadline. */
async function waitUntilGone(s: Session, ids: readonly string[], timeoutMs: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pages = s.live ? s.live.pages : await pageTargets(s.conn);
    const left = ids.filter((id) => pages.has(id));
    if (left.length === 0 || Date.now() >= deadline) return left;
    await sleep(CLOSE_POLL_MS);
  }
}
