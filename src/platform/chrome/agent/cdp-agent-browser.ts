// AgentBrowser over the Chrome DevTools Protocol: one browser-level websocket, a flat session per
// agent tab (plus auto-attached sessions for out-of-process iframes), an isolated world in every
// frame that numbers elements and watches the DOM. See agent-tab.ts for the per-tab work.

import type { ActionOutcome, AgentBrowser, BrowserTab, ElementFacts, InTabCommand, PageImage, PageSnapshot } from '../../../engine/agent-ports';
import { ChromeUnavailableError, DeskPilotError, TabGoneError, errorMessage } from '../../../engine/errors';
import { call, isNoTargetError, sleep, type CdpConnection, type CdpListener } from '../cdp-connection';
import { openBrowserSocket, DEFAULT_CONNECT_TIMEOUT_MS } from '../connect';
import { DevtoolsGuard, refusalMessage } from '../devtools-guard';
import { hostPort } from '../endpoint-url';
import { checkUrl } from './action-error';
import { findCurrentTab } from './current-tab';
import { pageScreenshot } from './page-screenshot';
import { AgentTab, DEFAULT_TIMINGS, type TabTimings } from './agent-tab';
import { maskPii } from './pii';
import { withoutDevtoolsSockets } from './request-guard';

export interface CdpAgentBrowserOptions extends Partial<TabTimings> {
  /**
   * ws://host:port/devtools/browser/<id>: the browser, and the DevTools endpoint no agent tab may
   * load. Connected to on first use (and closed by dispose) unless `conn` is given.
   */
  browserWsUrl: string;
  /** Other addresses of the same endpoint (the configured chrome URL), refused the same way. */
  endpointNames?: ReadonlyArray<string | undefined>;
  /** An existing connection to that browser (left open by dispose). */
  conn?: CdpConnection;
  connectTimeoutMs?: number;
  /** How long closeTab waits for the tab to disappear. Default 5 s. */
  closeTimeoutMs?: number;
}

export interface CdpAgentBrowser extends AgentBrowser {
  /** snapshot() plus timings (collectMs: CDP round trips included; pageMs: in-page collector time). */
  snapshotWithTimings(targetId: string, opts: { maxChars: number; maskPii: boolean }): Promise<PageSnapshot & { collectMs: number; pageMs: number }>;
}

export function createCdpAgentBrowser(opts: CdpAgentBrowserOptions): CdpAgentBrowser {
  return new CdpAgentBrowserImpl(opts);
}

interface Connected {
  conn: CdpConnection;
  owned: boolean;
  listener: CdpListener;
  onDisconnect: () => void;
}

class CdpAgentBrowserImpl implements CdpAgentBrowser {
  private connected: Connected | null = null;
  private connecting: Promise<Connected> | null = null;
  private readonly tabs = new Map<string, AgentTab>();
  private readonly attaching = new Map<string, Promise<AgentTab>>();
  private readonly timings: TabTimings;
  private readonly guard: DevtoolsGuard;
  private disposed = false;
  private lost: string | null = null;

  constructor(private readonly opts: CdpAgentBrowserOptions) {
    this.timings = {
      loadTimeoutMs: opts.loadTimeoutMs ?? DEFAULT_TIMINGS.loadTimeoutMs,
      quietMs: opts.quietMs ?? DEFAULT_TIMINGS.quietMs,
      settleMaxMs: opts.settleMaxMs ?? DEFAULT_TIMINGS.settleMaxMs,
      evalTimeoutMs: opts.evalTimeoutMs ?? DEFAULT_TIMINGS.evalTimeoutMs,
    };
    this.guard = new DevtoolsGuard({ browserWsUrl: opts.browserWsUrl, otherNames: opts.endpointNames });
  }

  // -------------------------------------------------------------------------------------------
  // Connection

  private where(): string {
    return hostPort(this.opts.browserWsUrl);
  }

  private async connection(): Promise<Connected> {
    if (this.disposed) throw new ChromeUnavailableError('The agent browser was disposed; create a new one.');
    if (this.lost) throw new ChromeUnavailableError(`The connection to Chrome at ${this.where()} was lost (${this.lost}).`);
    if (this.connected) return this.connected;
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<Connected> {
    let conn: CdpConnection;
    let owned = false;
    if (this.opts.conn) conn = this.opts.conn;
    else {
      try {
        conn = await openBrowserSocket(this.opts.browserWsUrl, this.opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
      } catch (e) {
        throw new ChromeUnavailableError(`Cannot connect to Chrome at ${this.where()}: ${errorMessage(e)}`);
      }
      owned = true;
    }
    const listener: CdpListener = (msg: { method: string; params: any; sessionId?: string }) => this.onMessage(msg);
    const onDisconnect = () => {
      this.lost = 'the websocket closed';
      for (const t of this.tabs.values()) t.session.markGone();
    };
    conn.on('event', listener);
    conn.on('disconnect', onDisconnect);
    const c: Connected = { conn, owned, listener, onDisconnect };
    if (this.disposed) {
      this.release(c);
      throw new ChromeUnavailableError('The agent browser was disposed; create a new one.');
    }
    // For tabs the pages open themselves (target=_blank, window.open) and for tabs closing.
    await call(conn, 'Target.setDiscoverTargets', { discover: true }).catch(() => undefined);
    this.connected = c;
    return c;
  }

  private release(c: Connected): void {
    c.conn.removeListener('event', c.listener);
    c.conn.removeListener('disconnect', c.onDisconnect);
    if (c.owned) void c.conn.close().catch(() => undefined);
  }

  private onMessage(msg: { method: string; params: any; sessionId?: string }): void {
    const { method, params: p, sessionId } = msg;
    if (!sessionId) {
      switch (method) {
        case 'Target.targetDestroyed':
          this.tabs.get(p.targetId)?.session.markGone();
          break;
        case 'Target.detachedFromTarget': {
          for (const t of this.tabs.values()) if (t.session.top.sessionId === p.sessionId) t.session.markGone();
          break;
        }
        case 'Target.targetCreated': {
          const info = p.targetInfo;
          if (info?.type === 'page' && info.openerId) this.tabs.get(info.openerId)?.session.popupOpened(info.url);
          break;
        }
      }
      return;
    }
    const tab = this.tabOfSession(sessionId)?.session;
    if (!tab) return;
    const fs = tab.sessions.get(sessionId)!;
    switch (method) {
      case 'Target.attachedToTarget': {
        const info = p.targetInfo;
        if (info.type !== 'iframe') {
          // Only iframes are asked for; anything else is resumed and let go.
          const conn = this.connected?.conn;
          if (conn) {
            void call(conn, 'Runtime.runIfWaitingForDebugger', undefined, { sessionId: p.sessionId }).catch(() => undefined);
            void call(conn, 'Target.detachFromTarget', { sessionId: p.sessionId }, { sessionId }).catch(() => undefined);
          }
          return;
        }
        const child = tab.addChild(fs, p.sessionId, info.targetId);
        void tab.setUp(child, p.waitingForDebugger === true).catch(() => undefined);
        return;
      }
      case 'Target.detachedFromTarget':
        tab.removeSession(p.sessionId);
        return;
      default:
        tab.onEvent(fs, method, p);
    }
  }

  private tabOfSession(sessionId: string): AgentTab | undefined {
    for (const t of this.tabs.values()) if (t.session.sessions.has(sessionId)) return t;
    return undefined;
  }

  /** The tab, attached (once) if it was opened by someone else. */
  private async tab(targetId: string): Promise<AgentTab> {
    const known = this.tabs.get(targetId);
    if (known) {
      known.session.assertAlive();
      return known;
    }
    let pending = this.attaching.get(targetId);
    if (!pending) {
      pending = this.attach(targetId).finally(() => this.attaching.delete(targetId));
      this.attaching.set(targetId, pending);
    }
    return pending;
  }

  private async attach(targetId: string): Promise<AgentTab> {
    const { conn } = await this.connection();
    let sessionId: string;
    try {
      ({ sessionId } = await call(conn, 'Target.attachToTarget', { targetId, flatten: true }));
    } catch (e) {
      if (isNoTargetError(e)) throw new TabGoneError(targetId);
      throw e;
    }
    const tab = new AgentTab(conn, targetId, sessionId, this.timings, this.guard);
    this.tabs.set(targetId, tab);
    try {
      await tab.session.setUp(tab.session.top, false);
      const { targetInfo } = await call(conn, 'Target.getTargetInfo', { targetId });
      tab.session.url = targetInfo.url;
      tab.session.title = targetInfo.title;
    } catch (e) {
      if (tab.gone) throw new TabGoneError(targetId);
      throw e;
    }
    return tab;
  }

  // -------------------------------------------------------------------------------------------
  // AgentBrowser

  async openTab(url: string): Promise<{ targetId: string }> {
    // Refusals carry their code (url_refused): the loop tells the model why, and decides by the code.
    const target = checkUrl(url, '');
    const refusal = await this.guard.refusal(target);
    if (refusal) throw new DeskPilotError(refusalMessage(refusal), 'url_refused');
    const { conn } = await this.connection();
    // Open blank, set up, then navigate: our world and network log see the page from its first byte.
    const { targetId } = await call(conn, 'Target.createTarget', { url: 'about:blank', background: true });
    const tab = await this.tab(targetId);
    if (target === 'about:blank') return { targetId };
    tab.session.loading = true;
    const nav = await call(conn, 'Page.navigate', { url: target }, { sessionId: tab.session.top.sessionId, timeoutMs: this.timings.loadTimeoutMs }).catch((e: unknown) => ({
      errorText: errorMessage(e),
    }));
    if ('errorText' in nav && nav.errorText) {
      await this.closeTab(targetId).catch(() => undefined);
      const refused = tab.session.refusedNavigation;
      if (refused) throw new DeskPilotError(refusalMessage(refused, url), 'url_refused');
      throw new DeskPilotError(`Failed to open URL "${url}". ${nav.errorText}`, 'action_failed');
    }
    // Loaded, and ready for input too: a document that has not painted yet drops it.
    await tab.ready();
    return { targetId };
  }

  async closeTab(targetId: string): Promise<void> {
    const { conn } = await this.connection();
    const tab = this.tabs.get(targetId);
    try {
      await call(conn, 'Target.closeTarget', { targetId });
    } catch (e) {
      if (!isNoTargetError(e)) throw e;
    }
    // closeTarget answers before the tab is gone.
    const deadline = Date.now() + (this.opts.closeTimeoutMs ?? 5000);
    while (Date.now() < deadline) {
      if (tab?.gone) break;
      const { targetInfos } = await call(conn, 'Target.getTargets', { filter: [{ type: 'page' }] });
      if (!targetInfos.some((t) => t.targetId === targetId)) break;
      await sleep(25);
    }
    tab?.session.markGone();
    this.tabs.delete(targetId);
  }

  async listTabs(opts: { maskPii: boolean }): Promise<BrowserTab[]> {
    const { conn } = await this.connection();
    const { targetInfos } = await call(conn, 'Target.getTargets', { filter: [{ type: 'page' }] });
    // DevTools windows are pages too, but no tab of the user's.
    return targetInfos
      .filter((t) => !t.url.startsWith('devtools://'))
      .map((t) => {
        const mask = (text: string) => (opts.maskPii ? maskPii(withoutDevtoolsSockets(text)) : withoutDevtoolsSockets(text));
        return { targetId: t.targetId, url: mask(t.url), title: mask(t.title) };
      });
  }

  async snapshot(targetId: string, opts: { maxChars: number; maskPii: boolean }): Promise<PageSnapshot> {
    const { collectMs: _c, pageMs: _p, ...snap } = await this.snapshotWithTimings(targetId, opts);
    return snap;
  }

  async snapshotWithTimings(targetId: string, opts: { maxChars: number; maskPii: boolean }): Promise<PageSnapshot & { collectMs: number; pageMs: number }> {
    const tab = await this.tab(targetId);
    const snap = await this.surfaced(tab, () => tab.snapshot(opts));
    return { ...snap, url: withoutDevtoolsSockets(snap.url), title: withoutDevtoolsSockets(snap.title), text: withoutDevtoolsSockets(snap.text) };
  }

  async currentTab(): Promise<{ tab: BrowserTab } | { tab: null; why: string }> {
    const { conn } = await this.connection();
    const found = await findCurrentTab(conn);
    if (!found.tab) return found;
    // The DevTools endpoint's address is not for the model, whatever tab shows it.
    return { tab: { ...found.tab, url: withoutDevtoolsSockets(found.tab.url), title: withoutDevtoolsSockets(found.tab.title) } };
  }

  async screenshot(targetId: string, opts: { maxWidth: number; quality: number }): Promise<PageImage> {
    const tab = await this.tab(targetId);
    return this.surfaced(tab, () => pageScreenshot(tab.session, opts));
  }

  async element(targetId: string, id: number): Promise<ElementFacts | null> {
    const tab = await this.tab(targetId);
    return this.surfaced(tab, () => tab.element(id));
  }

  async perform(targetId: string, cmd: InTabCommand, opts: { noChangeMs: number; maskPii: boolean }): Promise<ActionOutcome> {
    const tab = await this.tab(targetId);
    const out = await this.surfaced(tab, () => tab.perform(cmd, opts));
    return { ...out, message: withoutDevtoolsSockets(out.message), ...(out.output !== undefined ? { output: withoutDevtoolsSockets(out.output) } : {}) };
  }

  /** Turns a dropped socket or a vanished tab into the errors callers expect. */
  private async surfaced<T>(tab: AgentTab, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (this.lost) throw new ChromeUnavailableError(`The connection to Chrome at ${this.where()} was lost (${this.lost}).`);
      if (tab.gone || e instanceof TabGoneError) {
        this.tabs.delete(tab.targetId);
        throw new TabGoneError(tab.targetId);
      }
      throw e;
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const c = this.connected ?? (await this.connecting?.catch(() => null)) ?? null;
    this.connected = null;
    if (!c) return;
    // Detach (our scripts, focus emulation and auto-attach go with the sessions); never close the browser.
    await Promise.all(
      [...this.tabs.values()].filter((t) => !t.gone).map((t) => call(c.conn, 'Target.detachFromTarget', { sessionId: t.session.top.sessionId }, { timeoutMs: 2000 }).catch(() => undefined)),
    );
    for (const t of this.tabs.values()) t.session.markGone();
    this.tabs.clear();
    this.release(c);
  }
}
