// One agent tab's CDP side: its flat sessions (the page's own and one per out-of-process iframe),
// what their events say (navigations, loading, dialogs, popups, network activity, guarded
// requests), and calls into our isolated world of each frame. The snapshot, settling and input
// are collaborators handed this session; agent-tab.ts puts them together.

import { TabGoneError, errorMessage } from '../../../engine/errors';
import { call, CdpTimeoutError, sleep, type CdpCommand, type CdpConnection, type CdpParams, type CdpResult } from '../cdp-connection';
import type { DevtoolsGuard, Refusal } from '../devtools-guard';
import { ApiLog } from './api-log';
import { FrameSession, type World } from './frames';
import { PAGE_SCRIPT, WORLD_NAME } from './page-script';
import { answerPaused, blockedNotice, guardedRequestPatterns } from './request-guard';

export interface TabTimings {
  /** openTab/navigate: how long to wait for the load event. */
  loadTimeoutMs: number;
  /** After a change: no mutation for this long (and no XHR/fetch in flight) counts as settled. */
  quietMs: number;
  /** Upper bound of the settle wait after a change (a navigation waits for its load first). */
  settleMaxMs: number;
  /** Bound for one Runtime.evaluate; a page that does not answer is reported, not waited for. */
  evalTimeoutMs: number;
}

export const DEFAULT_TIMINGS: TabTimings = { loadTimeoutMs: 15_000, quietMs: 300, settleMaxMs: 3_000, evalTimeoutMs: 5_000 };

/** One of our isolated worlds, with the session that reaches it. */
export interface WorldRef {
  fs: FrameSession;
  w: World;
}

/** Our world went away while we talked to it (navigation, frame removed): the page changed. */
export class WorldGone extends Error {}

export class TabSession {
  readonly top: FrameSession;
  readonly sessions = new Map<string, FrameSession>();
  readonly api = new ApiLog();
  gone = false;
  url = '';
  title = '';
  /** Main-frame navigations (cross- and same-document) seen so far. */
  navCount = 0;
  loading = false;
  private loadWaiters: Array<() => void> = [];
  /** Values typed into password fields: scrubbed from everything the model gets. */
  readonly secrets = new Set<string>();
  /** What the page did on its own (dialogs, popups, blocked requests): for the next snapshot, and for the action in progress. */
  private forSnapshot: string[] = [];
  private forAction: string[] = [];
  popups: string[] = [];
  dialogs = 0;
  /** The last document request of the main frame that was refused (a redirect to a DevTools endpoint). */
  refusedNavigation: Refusal | null = null;

  constructor(
    private readonly conn: CdpConnection,
    readonly targetId: string,
    sessionId: string,
    readonly timings: TabTimings,
    readonly guard: DevtoolsGuard,
  ) {
    this.top = new FrameSession(sessionId, targetId, null);
    this.sessions.set(sessionId, this.top);
  }

  send<M extends CdpCommand>(fs: FrameSession, method: M, params?: CdpParams<M>, timeoutMs?: number): Promise<CdpResult<M>> {
    return call(this.conn, method, params, { sessionId: fs.sessionId, timeoutMs });
  }

  /** Enables what the agent needs on a fresh session (page or OOPIF) and resumes it if it waits. */
  async setUp(fs: FrameSession, waiting: boolean): Promise<void> {
    const steps: Array<Promise<unknown>> = [
      this.send(fs, 'Page.enable'),
      this.send(fs, 'Runtime.enable'),
      this.send(fs, 'Network.enable', { maxPostDataSize: 16_384, maxTotalBufferSize: 1_000_000, maxResourceBufferSize: 0 } as CdpParams<'Network.enable'>),
      this.send(fs, 'Page.addScriptToEvaluateOnNewDocument', { source: PAGE_SCRIPT, worldName: WORLD_NAME, runImmediately: true }),
      this.send(fs, 'Fetch.enable', { patterns: guardedRequestPatterns(this.guard) }),
      this.send(fs, 'Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
        filter: [{ type: 'iframe', exclude: false }],
      } as CdpParams<'Target.setAutoAttach'>),
    ];
    if (fs === this.top) steps.push(this.send(fs, 'Emulation.setFocusEmulationEnabled', { enabled: true }));
    try {
      await Promise.all(steps);
    } finally {
      if (waiting) await this.send(fs, 'Runtime.runIfWaitingForDebugger').catch(() => undefined);
    }
  }

  onEvent(fs: FrameSession, method: string, p: any): void {
    switch (method) {
      case 'Runtime.executionContextCreated': {
        const c = p.context;
        if (c.name === WORLD_NAME && c.auxData?.frameId) fs.addWorld({ frameId: c.auxData.frameId, contextId: c.id, uniqueId: c.uniqueId });
        break;
      }
      case 'Runtime.executionContextDestroyed':
        fs.dropContext(p.executionContextId, p.executionContextUniqueId);
        break;
      case 'Runtime.executionContextsCleared':
        fs.worlds.clear();
        break;
      case 'Page.frameNavigated':
        if (!p.frame.parentId && fs === this.top) {
          this.navCount++;
          this.url = p.frame.url + (p.frame.urlFragment ?? '');
        }
        break;
      case 'Page.navigatedWithinDocument':
        if (p.frameId === this.targetId && fs === this.top) {
          this.navCount++;
          this.url = p.url;
        }
        break;
      case 'Page.frameStartedLoading':
        if (p.frameId === this.targetId) this.loading = true;
        break;
      case 'Page.frameStoppedLoading':
        if (p.frameId === this.targetId) this.markLoaded();
        break;
      case 'Page.loadEventFired':
        if (fs === this.top) this.markLoaded();
        break;
      case 'Page.javascriptDialogOpening': {
        // A dialog blocks the page's scripts (and every evaluate): answer it at once. Alerts and
        // beforeunload are accepted; confirm and prompt are dismissed (the cautious answer).
        const accept = p.type === 'alert' || p.type === 'beforeunload';
        this.dialogs++;
        this.tell(`The page showed a ${p.type} dialog ("${String(p.message ?? '').slice(0, 200)}"); it was ${accept ? 'accepted' : 'dismissed'}.`);
        void this.send(fs, 'Page.handleJavaScriptDialog', { accept }).catch(() => undefined);
        break;
      }
      case 'Fetch.requestPaused':
        void this.answerPaused(fs, p);
        break;
      case 'Network.requestWillBeSent':
        this.api.onRequest(fs.sessionId, p);
        break;
      case 'Network.responseReceived':
        this.api.onResponse(fs.sessionId, p.requestId, p.response?.status);
        break;
      case 'Network.loadingFinished':
        this.api.onDone(fs.sessionId, p.requestId, false);
        break;
      case 'Network.loadingFailed':
        this.api.onDone(fs.sessionId, p.requestId, true);
        break;
    }
  }

  /** Lets a paused request go on, or fails it when it would reach a DevTools endpoint (and says so). */
  private async answerPaused(fs: FrameSession, p: Parameters<typeof answerPaused>[1]): Promise<void> {
    try {
      const a = await answerPaused(this.guard, p);
      if (a.refusal) {
        if (fs === this.top && p.frameId === this.top.rootFrameId) this.refusedNavigation = a.refusal;
        this.tell(blockedNotice(a.refusal));
      }
      await this.send(fs, a.method, a.params as never);
    } catch {
      // the session went away: Chrome lets the request go on its own
    }
  }

  addChild(parent: FrameSession, sessionId: string, targetId: string): FrameSession {
    const fs = new FrameSession(sessionId, targetId, parent);
    parent.children.add(fs);
    this.sessions.set(sessionId, fs);
    return fs;
  }

  removeSession(sessionId: string): void {
    const fs = this.sessions.get(sessionId);
    if (!fs) return;
    for (const s of fs.tree()) {
      s.detached = true;
      this.sessions.delete(s.sessionId);
      this.api.forgetSession(s.sessionId);
    }
    fs.parent?.children.delete(fs);
    if (fs === this.top) this.markGone();
  }

  popupOpened(url: string): void {
    this.popups.push(url);
    this.tell(`The page opened a new tab: ${url || '(blank)'}.`);
  }

  private tell(text: string): void {
    this.forSnapshot.push(text);
    this.forAction.push(text);
  }

  /** What the page did since the last snapshot. */
  takeSnapshotNotices(): string[] {
    const out = this.forSnapshot;
    this.forSnapshot = [];
    return out;
  }

  /** An action begins: what the page does from now on is told with its outcome. */
  beginAction(): void {
    this.forAction = [];
  }

  takeActionNotices(): string[] {
    const out = this.forAction;
    this.forAction = [];
    return out;
  }

  markGone(): void {
    this.gone = true;
    this.markLoaded();
  }

  private markLoaded(): void {
    this.loading = false;
    const w = this.loadWaiters;
    this.loadWaiters = [];
    for (const f of w) f();
  }

  assertAlive(): void {
    if (this.gone) throw new TabGoneError(this.targetId);
  }

  /** Resolves when the page finishes loading (or at the deadline); true if it loaded. */
  async waitForLoad(timeoutMs: number): Promise<boolean> {
    if (!this.loading) return true;
    let timer: NodeJS.Timeout | undefined;
    const loaded = await new Promise<boolean>((resolve) => {
      this.loadWaiters.push(() => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    clearTimeout(timer);
    return loaded;
  }

  /** Our world in the main frame's current document, if it is there yet. */
  topWorld(): World | undefined {
    return this.top.worlds.get(this.top.rootFrameId);
  }

  /** Waits (bounded) until the main frame has our world, e.g. right after attaching or navigating. */
  async waitForTopWorld(timeoutMs: number): Promise<World | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.assertAlive();
      const w = this.topWorld();
      if (w) return w;
      if (Date.now() > deadline) return null;
      await sleep(20);
    }
  }

  /** Every live world of the tab, top session first. */
  worlds(): WorldRef[] {
    const out: WorldRef[] = [];
    for (const fs of this.top.tree()) for (const w of fs.worlds.values()) out.push({ fs, w });
    return out;
  }

  // ---- calls into our worlds ----

  /** Evaluates `expr` in our world (bounded); installs the page script first in a world that predates it. */
  async evaluate<T>(fs: FrameSession, w: World, expr: string, timeoutMs = this.timings.evalTimeoutMs): Promise<T> {
    const run = async () => {
      let r;
      try {
        r = await this.send(fs, 'Runtime.evaluate', { expression: expr, uniqueContextId: w.uniqueId, returnByValue: true, silent: true }, timeoutMs);
      } catch (e) {
        if (e instanceof CdpTimeoutError) throw e;
        if (/context|target closed|session|not found/i.test(errorMessage(e))) throw new WorldGone(errorMessage(e));
        throw e;
      }
      if (r.exceptionDetails) throw new Error(`page script failed: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
      return r.result.value as T | '__dp_missing__';
    };
    let v = await run();
    if (v === '__dp_missing__') {
      // A world created before our script was registered for it: install it now.
      await this.send(fs, 'Runtime.evaluate', { expression: PAGE_SCRIPT, uniqueContextId: w.uniqueId, silent: true }, timeoutMs);
      v = await run();
    }
    return v as T;
  }

  /** Calls `__dp[fn](...args)` of the page script in our world. */
  call<T>(fs: FrameSession, w: World, fn: string, ...args: unknown[]): Promise<T> {
    const a = args.map((x) => JSON.stringify(x)).join(',');
    return this.evaluate<T>(fs, w, `globalThis.__dp ? __dp.${fn}(${a}) : '__dp_missing__'`);
  }
}
