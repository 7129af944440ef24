// One tab under agent control: its CDP sessions and isolated worlds, the element numbering, the
// snapshot, and the in-tab commands. Created and fed with events by CdpAgentBrowser.

import type { ActionOutcome, ElementFacts, InTabCommand, PageSnapshot } from '../../../engine/agent-ports';
import { DeskPilotError, TabGoneError, errorMessage } from '../../../engine/errors';
import type { ErrorCode } from '../../../protocol/codes';
import { call, CdpTimeoutError, sleep, type CdpCommand, type CdpConnection, type CdpParams, type CdpResult } from '../cdp-connection';
import { refusalMessage, type DevtoolsGuard, type Refusal } from '../devtools-guard';
import { ApiLog } from './api-log';
import { FrameSession, type ElementRef, type World } from './frames';
import { keyEvents, KeyParseError, parseKeyCombo } from './keys';
import { E, F, PAGE_SCRIPT, WORLD_NAME, type CollectResult, type PreparedPoint } from './page-script';
import { maskPii, removeSecrets } from './pii';
import { renderSnapshot, type SnapElement } from './render';
import { verifiedClick, type ClickPort } from './verified-click';
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

/** Bound for waiting on a document's first paint before sending it input. */
const PAINT_WAIT_MS = 2000;

/** Bound for a document to render two frames before a click is tried again (background tabs render about once a second). */
const FRAMES_WAIT_MS = 5000;

/** Interactive elements further than this many screens from the viewport are counted, not listed. */
const FAR_SCREENS = 2;

/** Recoverable problem inside one action: becomes `{ ok: false, code, message }`. */
class ActionError extends DeskPilotError {
  constructor(code: ErrorCode, message: string) {
    super(message, code);
  }
}

class WorldGone extends Error {}

const notFound = (id: number) => new ActionError('element_not_found', `Element ID ${id} not found.`);
const unusable = (message: string) => new ActionError('element_unusable', message);

interface Watch {
  counters: Map<string, number>;
  nav: number;
  popups: number;
  dialogs: number;
}

interface Prepared {
  x: number;
  y: number;
  tag: string;
}

export class AgentTab {
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
  private readonly numbers = new Map<string, number>();
  private readonly refs = new Map<number, ElementRef>();
  private nextNumber = 1;
  private previous: { doc: string; listed: Set<number> } | null = null;
  /** Values typed into password fields: scrubbed from everything the model gets. */
  readonly secrets = new Set<string>();
  private notices: string[] = [];
  private actionNotices: string[] = [];
  popups: string[] = [];
  dialogs = 0;
  /** The last document request of the main frame that was refused (a redirect to a DevTools endpoint). */
  refusedNavigation: Refusal | null = null;

  constructor(
    private readonly conn: CdpConnection,
    readonly targetId: string,
    sessionId: string,
    private readonly t: TabTimings,
    private readonly guard: DevtoolsGuard,
  ) {
    this.top = new FrameSession(sessionId, targetId, null);
    this.sessions.set(sessionId, this.top);
  }

  // -------------------------------------------------------------------------------------------
  // Sessions and events

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
        const text = `The page showed a ${p.type} dialog ("${String(p.message ?? '').slice(0, 200)}"); it was ${accept ? 'accepted' : 'dismissed'}.`;
        this.notices.push(text);
        this.actionNotices.push(text);
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
        const text = blockedNotice(a.refusal);
        this.notices.push(text);
        this.actionNotices.push(text);
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
    const text = `The page opened a new tab: ${url || '(blank)'}.`;
    this.notices.push(text);
    this.actionNotices.push(text);
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

  /** Waits (bounded) until the main frame has our world, e.g. right after attaching or navigating. */
  async waitForTopWorld(timeoutMs: number): Promise<World | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.assertAlive();
      const w = this.top.worlds.get(this.top.rootFrameId);
      if (w) return w;
      if (Date.now() > deadline) return null;
      await sleep(20);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Evaluation in our worlds

  private async evalIn<T>(fs: FrameSession, w: World, expr: string, timeoutMs = this.t.evalTimeoutMs): Promise<T> {
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

  private dp<T>(fs: FrameSession, w: World, fn: string, ...args: unknown[]): Promise<T> {
    const a = args.map((x) => JSON.stringify(x)).join(',');
    return this.evalIn<T>(fs, w, `globalThis.__dp ? __dp.${fn}(${a}) : '__dp_missing__'`);
  }

  /** Every live world of the tab, top session first. */
  private worlds(): Array<{ fs: FrameSession; w: World }> {
    const out: Array<{ fs: FrameSession; w: World }> = [];
    for (const fs of this.top.tree()) for (const w of fs.worlds.values()) out.push({ fs, w });
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Frame geometry

  /**
   * Offset of a frame's viewport in the top-level viewport: the content box of its owner <iframe>
   * (DOM.getBoxModel answers in the coordinates of the owner session's local root), plus that
   * session's own offset for out-of-process frames. Null when the frame has no box.
   */
  private async frameOffset(fs: FrameSession, frameId: string, memo: Map<string, Promise<Box | null>>): Promise<Box | null> {
    if (fs === this.top && frameId === fs.rootFrameId) return { x: 0, y: 0, w: Infinity, h: Infinity };
    const key = `${fs.sessionId}|${frameId}`;
    let p = memo.get(key);
    if (!p) {
      p = (async () => {
        const ownerSession = frameId === fs.rootFrameId ? fs.parent : fs;
        if (!ownerSession) return null;
        const base = await this.frameOffset(ownerSession, ownerSession.rootFrameId, memo);
        if (!base) return null;
        try {
          const { backendNodeId } = await this.send(ownerSession, 'DOM.getFrameOwner', { frameId });
          const { model } = await this.send(ownerSession, 'DOM.getBoxModel', { backendNodeId });
          const q = model.content;
          return { x: base.x + q[0]!, y: base.y + q[1]!, w: q[2]! - q[0]!, h: q[5]! - q[1]! };
        } catch {
          return null;
        }
      })();
      memo.set(key, p);
    }
    return p;
  }

  /** Brings the <iframe>s holding a frame into view, outermost first (before acting inside it). */
  private async revealFrame(fs: FrameSession, frameId: string): Promise<void> {
    if (fs === this.top && frameId === fs.rootFrameId) return;
    const ownerSession = frameId === fs.rootFrameId ? fs.parent : fs;
    if (!ownerSession) return;
    await this.revealFrame(ownerSession, ownerSession.rootFrameId);
    try {
      const { backendNodeId } = await this.send(ownerSession, 'DOM.getFrameOwner', { frameId });
      await this.send(ownerSession, 'DOM.scrollIntoViewIfNeeded', { backendNodeId });
    } catch {
      // detached meanwhile: the element lookup reports it
    }
  }

  // -------------------------------------------------------------------------------------------
  // Snapshot

  async snapshot(opts: { maxChars: number; maskPii: boolean }): Promise<PageSnapshot & { collectMs: number; pageMs: number }> {
    this.assertAlive();
    const t0 = performance.now();
    if (!this.top.worlds.has(this.top.rootFrameId)) await this.waitForTopWorld(Math.min(3000, this.t.loadTimeoutMs));
    const all = this.worlds();
    const collected = await Promise.all(
      all.map(async ({ fs, w }) => {
        try {
          const r = await this.dp<CollectResult>(fs, w, 'collect', { root: w.frameId === fs.rootFrameId, farScreens: FAR_SCREENS });
          return { fs, w, r };
        } catch (e) {
          if (e instanceof WorldGone) return null;
          if (e instanceof CdpTimeoutError) return { fs, w, r: null, timedOut: true };
          throw e;
        }
      }),
    );
    this.assertAlive();
    const memo = new Map<string, Promise<Box | null>>();
    const roots = collected.filter((c): c is NonNullable<typeof c> => c !== null && !c.r?.skip);
    const offsets = await Promise.all(roots.map((c) => this.frameOffset(c.fs, c.w.frameId, memo)));
    const collectMs = performance.now() - t0;

    const topRoot = roots.find((c) => c.fs === this.top && c.w.frameId === this.top.rootFrameId);
    const topResult = topRoot?.r ?? null;
    const viewport = topResult ? { w: topResult.vw, h: topResult.vh } : { w: 1280, h: 800 };
    if (topResult) {
      this.url = topResult.url;
      this.title = topResult.title;
    }
    // Frames are spliced into the top document's list where their <iframe> sits (by position).
    const blocks: Array<{ y: number; els: SnapElement[] }> = [];
    let topEls: SnapElement[] = [];
    let pageMs = 0;
    let farAbove = 0;
    let farBelow = 0;
    roots.forEach((c, i) => {
      const off = offsets[i];
      if (!c.r || !off) return;
      pageMs += c.r.ms;
      farAbove += c.r.farAbove;
      farBelow += c.r.farBelow;
      const els: SnapElement[] = [];
      for (const t of c.r.els) {
        const x = t[E.x] + off.x;
        const y = t[E.y] + off.y;
        const inFrame = off.w === Infinity || (t[E.x] < off.w && t[E.y] < off.h && t[E.x] + t[E.w] > 0 && t[E.y] + t[E.h] > 0);
        els.push({
          n: this.numberFor(c.fs, c.w, t[E.id]),
          tag: t[E.tag],
          role: t[E.role],
          label: t[E.label],
          text: t[E.text],
          value: t[E.value],
          placeholder: t[E.placeholder],
          href: t[E.href],
          type: t[E.type],
          flags: t[E.flags],
          options: t[E.options],
          autocomplete: t[E.autocomplete],
          x,
          y,
          w: t[E.w],
          h: t[E.h],
          inView: (t[E.flags] & F.inView) !== 0 && inFrame,
        });
      }
      if (c === topRoot) topEls = els;
      else blocks.push({ y: off.y, els });
    });
    blocks.sort((a, b) => a.y - b.y);
    const elements: SnapElement[] = [];
    let bi = 0;
    for (const e of topEls) {
      while (bi < blocks.length && blocks[bi]!.y <= e.y) elements.push(...blocks[bi++]!.els);
      elements.push(e);
    }
    while (bi < blocks.length) elements.push(...blocks[bi++]!.els);

    const doc = topRoot?.w.uniqueId ?? '';
    const previous = this.previous && this.previous.doc === doc ? this.previous.listed : null;
    const notices = this.notices;
    this.notices = [];
    if (!topResult) notices.push(collected.some((c) => c?.timedOut) ? 'The page is not responding.' : 'The page is still loading.');
    const out = renderSnapshot({
      url: this.url,
      title: this.title,
      viewport,
      elements,
      previous,
      api: this.api.take(),
      notices,
      maxChars: opts.maxChars,
      maskPii: opts.maskPii,
      secrets: this.secrets,
      farScreens: FAR_SCREENS,
      farAbove,
      farBelow,
    });
    this.previous = { doc, listed: new Set(out.listed) };
    return {
      targetId: this.targetId,
      url: this.url,
      title: this.title,
      text: out.text,
      elementCount: out.listed.length,
      newIds: out.newIds,
      truncated: out.truncated,
      collectMs,
      pageMs,
    };
  }

  private numberFor(fs: FrameSession, w: World, local: number): number {
    const key = `${w.uniqueId}:${local}`;
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.nextNumber++;
      this.numbers.set(key, n);
      this.refs.set(n, { sessionId: fs.sessionId, frameId: w.frameId, uniqueId: w.uniqueId, local });
    }
    return n;
  }

  /** The world an element number lives in, if that document is still there. */
  private resolve(id: number): { fs: FrameSession; w: World; ref: ElementRef } | null {
    const ref = this.refs.get(id);
    if (!ref) return null;
    const fs = this.sessions.get(ref.sessionId);
    const w = fs?.worlds.get(ref.frameId);
    if (!fs || !w || w.uniqueId !== ref.uniqueId) {
      // The document is gone: forget its numbers.
      this.refs.delete(id);
      this.numbers.delete(`${ref.uniqueId}:${ref.local}`);
      return null;
    }
    return { fs, w, ref };
  }

  // -------------------------------------------------------------------------------------------
  // Element facts

  async element(id: number): Promise<ElementFacts | null> {
    this.assertAlive();
    const r = this.resolve(id);
    if (!r) return null;
    try {
      const f = await this.dp<Omit<ElementFacts, 'id'> | null>(r.fs, r.w, 'facts', r.ref.local);
      return f ? { id, ...f } : null;
    } catch (e) {
      if (e instanceof WorldGone) return null;
      throw e;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Actions

  async perform(cmd: InTabCommand, opts: { noChangeMs: number; maskPii: boolean }): Promise<ActionOutcome> {
    this.assertAlive();
    this.actionNotices = [];
    try {
      const out = await this.dispatch(cmd, opts);
      if (this.actionNotices.length > 0) out.message += ` ${this.actionNotices.join(' ')}`;
      out.message = removeSecrets(out.message, this.secrets);
      if (out.output !== undefined) out.output = removeSecrets(opts.maskPii ? maskPii(out.output) : out.output, this.secrets);
      return out;
    } catch (e) {
      if (this.gone || e instanceof TabGoneError) throw new TabGoneError(this.targetId);
      if (e instanceof ActionError) return { ok: false, code: e.code, changed: false, message: e.message };
      if (e instanceof WorldGone) return { ok: false, code: 'page_changed', changed: false, message: 'The page changed while acting (its document went away); take a fresh snapshot.' };
      if (e instanceof CdpTimeoutError) return { ok: false, code: 'timed_out', changed: false, message: `The page did not respond within ${e.timeoutMs / 1000} seconds (${e.method}).` };
      if (/websocket|not open|disconnected/i.test(errorMessage(e))) throw e;
      return { ok: false, code: 'action_failed', changed: false, message: `The action failed: ${errorMessage(e)}` };
    }
  }

  private async dispatch(cmd: InTabCommand, opts: { noChangeMs: number; maskPii: boolean }): Promise<ActionOutcome> {
    switch (cmd.action) {
      case 'click':
        return this.click(cmd.id, cmd.button ?? 'left', cmd.count ?? 1, opts.noChangeMs);
      case 'type':
        return this.type(cmd.id, cmd.value, cmd.mode ?? 'replace', cmd.submit === true, opts);
      case 'select':
        return this.select(cmd.id, cmd.option, opts.noChangeMs);
      case 'press_key':
        return this.pressKey(cmd.key, cmd.id, opts.noChangeMs);
      case 'scroll':
        return this.scroll(cmd.direction, cmd.id, cmd.amount, opts.noChangeMs);
      case 'navigate':
        return this.navigate(cmd.to, opts.noChangeMs);
      case 'wait_for':
        return this.waitFor(cmd.condition, cmd.timeout_ms ?? 10_000);
      case 'read_page':
        return this.readPage(cmd.id, cmd.max_chars ?? 4000);
    }
  }

  private need(id: number): { fs: FrameSession; w: World; ref: ElementRef } {
    const r = this.resolve(id);
    if (!r) throw notFound(id);
    return r;
  }

  /**
   * Waits (bounded) until the documents that receive input have painted once: Chrome drops input
   * events that arrive before a document's first paint, and a background tab paints late.
   */
  async waitForPaint(worlds: Array<{ fs: FrameSession; w: World }>, timeoutMs = PAINT_WAIT_MS): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const done = await Promise.all(worlds.map(({ fs, w }) => this.dp<boolean>(fs, w, 'painted').catch(() => true)));
      if (done.every(Boolean)) return true;
      if (Date.now() >= deadline) return false;
      await sleep(30);
    }
  }

  private inputWorlds(fs: FrameSession, w: World): Array<{ fs: FrameSession; w: World }> {
    const out = [{ fs, w }];
    const top = this.top.worlds.get(this.top.rootFrameId);
    if (top && top !== w) out.push({ fs: this.top, w: top });
    const root = fs.worlds.get(fs.rootFrameId);
    if (root && root !== w && fs !== this.top) out.push({ fs, w: root });
    return out;
  }

  /** Scrolls the element into view and returns a hit-testable point in top-level viewport coordinates. */
  private async point(id: number, needEnabled: boolean): Promise<Prepared> {
    const r = this.need(id);
    await this.waitForPaint(this.inputWorlds(r.fs, r.w));
    await this.revealFrame(r.fs, r.w.frameId);
    const p = await this.dp<PreparedPoint>(r.fs, r.w, 'prepare', r.ref.local, { needEnabled });
    if (!p.ok) {
      switch (p.reason) {
        case 'not_found':
          throw notFound(id);
        case 'disabled':
          throw unusable(`Element ID ${id} is disabled.`);
        case 'covered':
          throw unusable(`Element ID ${id} is covered by ${p.cover ?? 'another element'}; close or scroll away what covers it first.`);
        default:
          throw unusable(`Element ID ${id} is not visible (hidden or without a size).`);
      }
    }
    const off = await this.frameOffset(r.fs, r.w.frameId, new Map());
    if (!off) throw unusable(`Element ID ${id} is inside a frame that is not visible.`);
    return { x: p.x + off.x, y: p.y + off.y, tag: p.tag ?? '' };
  }

  private readonly clickPort: ClickPort = {
    worlds: () => this.worlds(),
    call: (fs, w, fn, ...args) => this.dp(fs, w, fn, ...args),
    frames: async (fs, w) => {
      const expression = 'globalThis.__dp ? __dp.frames() : true';
      await this.send(fs, 'Runtime.evaluate', { expression, uniqueContextId: w.uniqueId, awaitPromise: true, silent: true }, FRAMES_WAIT_MS).catch(() => undefined);
    },
    mouse: async (type, at, button, buttons, clickCount) => {
      await this.send(this.top, 'Input.dispatchMouseEvent', { type, x: at.x, y: at.y, button, buttons, ...(clickCount ? { clickCount } : {}) });
    },
  };

  /** Clicks element `id` (or the element `local` of its world) where a person would, and makes sure the press reached it. */
  private async clickElement(id: number, r: { fs: FrameSession; w: World; ref: ElementRef }, aim: () => Promise<Prepared>, button: 'left' | 'right', count: number, local = r.ref.local): Promise<void> {
    const res = await verifiedClick(this.clickPort, { fs: r.fs, w: r.w, local }, aim, button, count);
    if (res.kind === 'not_found') throw notFound(id);
    if (res.kind === 'missed') {
      throw unusable(`The click on element ${id} did not reach it: ${res.attempts} tries landed on ${res.landed || 'nothing'} instead; close or scroll away what is there, or take a fresh snapshot.`);
    }
  }

  private async pressCombo(key: string): Promise<void> {
    for (const ev of keyEvents(parseKeyCombo(key))) await this.send(this.top, 'Input.dispatchKeyEvent', ev as unknown as CdpParams<'Input.dispatchKeyEvent'>);
  }

  private async click(id: number, button: 'left' | 'right', count: number, noChangeMs: number): Promise<ActionOutcome> {
    const r = this.need(id);
    const watch = await this.watch();
    await this.clickElement(id, r, () => this.point(id, true), button, count);
    const changed = await this.waitForChange(watch, noChangeMs);
    const what = `${count === 2 ? 'Double-clicked' : button === 'right' ? 'Right-clicked' : 'Clicked'} element ${id}`;
    return this.outcome(changed, watch, `${what}.`);
  }

  private async type(id: number, value: string, mode: 'replace' | 'append', submit: boolean, opts: { noChangeMs: number; maskPii: boolean }): Promise<ActionOutcome> {
    const r = this.need(id);
    const facts = await this.dp<Omit<ElementFacts, 'id'> | null>(r.fs, r.w, 'facts', r.ref.local);
    if (!facts) throw notFound(id);
    const watch = await this.watch();
    // Focus it the way a person would: a click at its centre (unless it already has the focus).
    if (!(await this.dp<boolean>(r.fs, r.w, 'isFocused', r.ref.local))) await this.clickElement(id, r, () => this.point(id, true), 'left', 1);
    const placed = await this.dp<string>(r.fs, r.w, 'placeCaret', r.ref.local, mode);
    if (placed === 'not_found') throw notFound(id);
    if (placed === 'not_editable') throw unusable(`Element ID ${id} (<${facts.tag}>) is not a text field.`);
    if (placed === 'disabled') throw unusable(`Element ID ${id} is disabled or read-only.`);
    if (placed !== 'ok') throw unusable(`Element ID ${id} could not be focused.`);
    if (facts.isPassword && value) this.secrets.add(value);
    if (value !== '') await this.send(this.top, 'Input.insertText', { text: value });
    else if (mode === 'replace') await this.pressCombo('Backspace');
    if (submit) await this.pressCombo('Enter');
    const changed = await this.waitForChange(watch, opts.noChangeMs);
    const state = await this.dp<{ secret: boolean; length: number; value: string } | null>(r.fs, r.w, 'fieldState', r.ref.local).catch(() => null);
    let msg: string;
    if (facts.isPassword) msg = `Typed ${value.length} characters into password field ${id}.`;
    else {
      const shown = opts.maskPii ? maskPii(value) : value;
      msg = value === '' ? `Cleared element ${id}.` : `Typed "${shown}" into element ${id}.`;
      if (state && !submit && mode === 'replace' && state.value !== value.replace(/\s+/g, ' ').trim() && state.value !== '') {
        msg += ` The field now shows "${opts.maskPii ? maskPii(state.value) : state.value}".`;
      }
    }
    if (submit) msg += ' Pressed Enter.';
    return this.outcome(changed, watch, msg);
  }

  private async select(id: number, option: { value: string } | { text: string } | { index: number }, noChangeMs: number): Promise<ActionOutcome> {
    const r = this.need(id);
    const watch = await this.watch();
    const res = await this.dp<{ status: string; chosen?: string; options?: string[]; total?: number; changed?: boolean }>(r.fs, r.w, 'selectOption', r.ref.local, option);
    const wanted = 'value' in option ? `value "${option.value}"` : 'text' in option ? `"${option.text}"` : `index ${option.index}`;
    switch (res.status) {
      case 'not_found':
        throw notFound(id);
      case 'disabled':
        throw unusable(`Element ID ${id} is disabled.`);
      case 'no_option':
        throw unusable(`Element ID ${id} has no option ${wanted}. Options: ${(res.options ?? []).map((o) => `"${o}"`).join(', ')}${(res.total ?? 0) > 30 ? ' …' : ''}.`);
      case 'option_disabled':
        throw unusable(`Option "${res.chosen}" of element ${id} is disabled.`);
      case 'ok': {
        const changed = await this.waitForChange(watch, noChangeMs);
        const out = this.outcome(changed || res.changed === true, watch, `Selected "${res.chosen}" in element ${id}.`);
        if (!changed && res.changed === false) out.message = `Element ${id} already had "${res.chosen}" selected.`;
        out.output = res.chosen;
        return out;
      }
    }
    return this.selectAria(id, r, option, wanted, watch, noChangeMs);
  }

  private async selectAria(
    id: number,
    r: { fs: FrameSession; w: World; ref: ElementRef },
    option: { value: string } | { text: string } | { index: number },
    wanted: string,
    watch: Watch,
    noChangeMs: number,
  ): Promise<ActionOutcome> {
    type Opt = { id: number; text: string; value: string; label: string; visible: boolean };
    const list = () => this.dp<{ expanded: string | null; role: string; options: Opt[] } | null>(r.fs, r.w, 'ariaOptions', r.ref.local);
    let info = await list();
    if (!info) throw notFound(id);
    if (info.options.length === 0 && !/combobox|listbox|button/.test(info.role) && info.expanded === null) {
      throw unusable(`Element ID ${id} is not a dropdown (<select>, listbox or combobox).`);
    }
    if (info.options.length === 0 || !info.options.some((o) => o.visible)) {
      // A collapsed combobox: open it and wait (bounded) for its options to show.
      await this.clickElement(id, r, () => this.point(id, true), 'left', 1);
      const deadline = Date.now() + Math.min(2000, noChangeMs);
      do {
        await sleep(50);
        info = await list();
        if (!info) throw notFound(id);
      } while (!info.options.some((o) => o.visible) && Date.now() < deadline);
    }
    const opts = info.options;
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
    let pick: Opt | undefined;
    if ('index' in option) pick = opts[option.index];
    else {
      const want = 'value' in option ? option.value : option.text;
      pick =
        opts.find((o) => ('value' in option ? o.value === want : o.text === want)) ??
        opts.find((o) => norm(o.text) === norm(want) || norm(o.value) === norm(want) || norm(o.label) === norm(want)) ??
        opts.find((o) => norm(want) !== '' && norm(o.text).includes(norm(want)));
    }
    if (!pick) throw unusable(`Element ID ${id} has no option ${wanted}. Options: ${opts.slice(0, 30).map((o) => `"${o.text}"`).join(', ')}.`);
    const aimAtOption = async (): Promise<Prepared> => {
      const optPoint = await this.dp<PreparedPoint>(r.fs, r.w, 'prepare', pick.id, { needEnabled: true });
      if (!optPoint.ok) throw unusable(`Option "${pick.text}" of element ${id} cannot be clicked (${optPoint.reason}).`);
      const off = await this.frameOffset(r.fs, r.w.frameId, new Map());
      if (!off) throw unusable(`Element ID ${id} is inside a frame that is not visible.`);
      return { x: optPoint.x + off.x, y: optPoint.y + off.y, tag: optPoint.tag ?? '' };
    };
    await this.clickElement(id, r, aimAtOption, 'left', 1, pick.id);
    const changed = await this.waitForChange(watch, noChangeMs);
    const out = this.outcome(changed, watch, `Selected "${pick.text}" in element ${id}.`);
    out.output = pick.text;
    return out;
  }

  private async pressKey(key: string, id: number | undefined, noChangeMs: number): Promise<ActionOutcome> {
    try {
      parseKeyCombo(key);
    } catch (e) {
      if (e instanceof KeyParseError) throw new ActionError('invalid_argument', e.message);
      throw e;
    }
    if (id !== undefined) {
      const r = this.need(id);
      await this.revealFrame(r.fs, r.w.frameId);
      if (!(await this.dp<boolean>(r.fs, r.w, 'focus', r.ref.local))) throw notFound(id);
    }
    const top = this.top.worlds.get(this.top.rootFrameId);
    if (top) await this.waitForPaint([{ fs: this.top, w: top }]);
    const watch = await this.watch();
    await this.pressCombo(key);
    const changed = await this.waitForChange(watch, noChangeMs);
    return this.outcome(changed, watch, `Pressed ${key}${id !== undefined ? ` in element ${id}` : ''}.`);
  }

  private async scroll(direction: 'up' | 'down' | 'top' | 'bottom', id: number | undefined, amount: number | undefined, noChangeMs: number): Promise<ActionOutcome> {
    let target: { fs: FrameSession; w: World; local?: number };
    if (id !== undefined) {
      const r = this.need(id);
      target = { fs: r.fs, w: r.w, local: r.ref.local };
    } else {
      const w = this.top.worlds.get(this.top.rootFrameId) ?? (await this.waitForTopWorld(2000));
      if (!w) throw new ActionError('action_failed', 'The page is not ready to scroll yet.');
      target = { fs: this.top, w };
    }
    const watch = await this.watch();
    const res = await this.dp<{ status: string; before: number; after: number; max: number; page: boolean; view: number; what: string }>(
      target.fs,
      target.w,
      'scroll',
      { id: target.local, direction, amount },
    );
    if (res.status === 'not_found') throw notFound(id!);
    const moved = res.after !== res.before;
    const what = res.page ? 'the page' : id !== undefined ? `element ${id}` : res.what;
    const moves = direction === 'top' || direction === 'bottom' ? `to the ${direction}` : direction;
    if (!moved) {
      const edge = direction === 'up' || direction === 'top' ? 'top' : 'bottom';
      return { ok: true, changed: false, message: `Did not scroll ${what}: it is already at the ${edge}${res.max === 0 ? ' (it does not scroll)' : ''}.` };
    }
    // Scrolling can load more content (infinite lists): give it a short settle.
    await this.waitForChange(watch, Math.min(noChangeMs, 500));
    const pos = res.max > 0 ? ` (now at ${res.after} of ${res.max} px)` : '';
    return { ok: true, changed: true, message: `Scrolled ${what} ${moves} by ${Math.abs(res.after - res.before)} px${pos}.` };
  }

  private async navigate(to: 'back' | 'forward' | 'reload' | { url: string }, noChangeMs: number): Promise<ActionOutcome> {
    const watch = await this.watch();
    let label: string;
    if (to === 'back' || to === 'forward') {
      const h = await this.send(this.top, 'Page.getNavigationHistory');
      const entry = h.entries[h.currentIndex + (to === 'back' ? -1 : 1)];
      if (!entry) throw new ActionError('action_failed', `There is no ${to === 'back' ? 'previous' : 'next'} page in this tab's history.`);
      await this.send(this.top, 'Page.navigateToHistoryEntry', { entryId: entry.id });
      label = to === 'back' ? 'Went back' : 'Went forward';
    } else if (to === 'reload') {
      await this.send(this.top, 'Page.reload', {});
      label = 'Reloaded the page';
    } else {
      const url = checkUrl(to.url, this.url);
      const refusal = await this.guard.refusal(url);
      if (refusal) throw new ActionError('url_refused', `${refusalMessage(refusal)}.`);
      this.refusedNavigation = null;
      const r = await this.send(this.top, 'Page.navigate', { url }, this.t.loadTimeoutMs);
      if (r.errorText && this.refusedNavigation) throw new ActionError('url_refused', `${refusalMessage(this.refusedNavigation, url)}.`);
      if (r.errorText) throw new ActionError('action_failed', `Failed to open URL "${url}". ${r.errorText}`);
      label = 'Navigated';
    }
    const waitMs = Math.max(noChangeMs, this.t.loadTimeoutMs);
    const deadline = Date.now() + waitMs;
    while (this.navCount === watch.nav && Date.now() < deadline) {
      this.assertAlive();
      await sleep(20);
    }
    if (this.navCount === watch.nav) return { ok: false, code: 'timed_out', changed: false, message: `${label}, but the page did not change within ${Math.round(waitMs / 1000)} seconds.` };
    await this.settle(true);
    return { ok: true, changed: true, message: `${label}: now at ${this.url}.` };
  }

  private async waitFor(condition: { text: string } | 'navigation' | 'network_idle', timeoutMs: number): Promise<ActionOutcome> {
    const deadline = Date.now() + timeoutMs;
    const secs = `${Math.round(timeoutMs / 100) / 10} seconds`;
    if (condition === 'navigation') {
      const nav = this.navCount;
      while (this.navCount === nav) {
        this.assertAlive();
        if (Date.now() > deadline) return { ok: false, code: 'timed_out', changed: false, message: `No navigation within ${secs}.` };
        await sleep(25);
      }
      await this.settle(true);
      return { ok: true, changed: true, message: `The page navigated to ${this.url}.` };
    }
    if (condition === 'network_idle') {
      const IDLE_MS = 500;
      while (!(this.api.pending(false) === 0 && this.api.quietMs() >= IDLE_MS && !this.loading)) {
        this.assertAlive();
        if (Date.now() > deadline) return { ok: false, code: 'timed_out', changed: false, message: `The network did not go idle within ${secs} (${this.api.pending(false)} requests still pending).` };
        await sleep(50);
      }
      return { ok: true, changed: false, message: 'The network is idle.' };
    }
    const text = condition.text;
    for (;;) {
      this.assertAlive();
      const found = await Promise.all(
        this.worlds().map(({ fs, w }) => this.dp<boolean>(fs, w, 'hasText', text).catch(() => false)),
      );
      if (found.some(Boolean)) return { ok: true, changed: false, message: `The text "${text}" is on the page.` };
      if (Date.now() > deadline) return { ok: false, code: 'timed_out', changed: false, message: `The text "${text}" did not appear within ${secs}.` };
      await sleep(100);
    }
  }

  private async readPage(id: number | undefined, maxChars: number): Promise<ActionOutcome> {
    let text: string;
    if (id !== undefined) {
      const r = this.need(id);
      const res = await this.dp<{ text: string } | null>(r.fs, r.w, 'text', { id: r.ref.local });
      if (!res) throw notFound(id);
      text = res.text;
    } else {
      const parts: string[] = [];
      for (const { fs, w } of this.worlds()) {
        const res = await this.dp<{ text: string } | null>(fs, w, 'text', {}).catch(() => null);
        if (!res || !res.text) continue;
        const isTop = fs === this.top && w.frameId === fs.rootFrameId;
        parts.push(isTop ? res.text : `--- frame ---\n${res.text}`);
      }
      text = parts.join('\n\n');
    }
    const total = text.length;
    if (total > maxChars) text = `${text.slice(0, maxChars)}\n… (cut: ${maxChars} of ${total} characters)`;
    return {
      ok: true,
      changed: false,
      message: `Read ${Math.min(total, maxChars)} characters of ${id !== undefined ? `element ${id}` : 'page'} text${total > maxChars ? ` (of ${total})` : ''}.`,
      output: text,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Change detection

  private async counters(): Promise<Map<string, { n: number; quietMs: number }>> {
    const out = new Map<string, { n: number; quietMs: number }>();
    await Promise.all(
      this.worlds().map(async ({ fs, w }) => {
        try {
          const c = await this.dp<{ n: number; quietMs: number }>(fs, w, 'changes');
          if (c) out.set(w.uniqueId, c);
        } catch (e) {
          if (e instanceof CdpTimeoutError) throw e;
          // a world that went away: its absence from the next poll is the change
        }
      }),
    );
    return out;
  }

  private async watch(): Promise<Watch> {
    const c = await this.counters();
    return { counters: new Map([...c].map(([k, v]) => [k, v.n])), nav: this.navCount, popups: this.popups.length, dialogs: this.dialogs };
  }

  /** Waits up to `ms` for a DOM change (mutation, input/change event, navigation, new document, dialog, popup), then for the page to settle. */
  private async waitForChange(w: Watch, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      this.assertAlive();
      let changed = this.navCount !== w.nav || this.popups.length !== w.popups || this.dialogs !== w.dialogs;
      if (!changed) {
        const now = await this.counters();
        for (const [uid, c] of now) {
          const before = w.counters.get(uid);
          if (before === undefined || c.n > before) {
            changed = true;
            break;
          }
        }
        // A watched document that vanished (navigation, iframe removed) is a change too.
        if (!changed) for (const uid of w.counters.keys()) if (!now.has(uid)) changed = true;
      }
      if (changed) {
        await this.settle(this.navCount !== w.nav);
        return true;
      }
      if (Date.now() >= deadline) return false;
      await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
    }
  }

  /** After a change: wait for a navigation's load, then for mutations and XHR/fetch to go quiet (bounded). */
  private async settle(navigated: boolean): Promise<void> {
    if (navigated || this.loading) {
      await this.waitForLoad(this.t.loadTimeoutMs);
      await this.waitForTopWorld(2000).catch(() => null);
    }
    const deadline = Date.now() + this.t.settleMaxMs;
    while (Date.now() < deadline) {
      this.assertAlive();
      const c = await this.counters().catch(() => new Map<string, { n: number; quietMs: number }>());
      const domQuiet = [...c.values()].every((x) => x.quietMs >= this.t.quietMs);
      if (domQuiet && this.api.pending(true) === 0 && !this.loading) return;
      await sleep(40);
    }
  }

  /** What was done; whether the page changed is said by `changed` (the loop words it for the model). */
  private outcome(changed: boolean, w: Watch, message: string): ActionOutcome {
    const nav = this.navCount !== w.nav ? ` The page is now ${this.url}.` : '';
    return { ok: true, changed, message: `${message}${nav}` };
  }
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/** Resolves a URL against the page's and allows only web pages (no javascript:, file:, chrome:). */
export function checkUrl(raw: string, base: string): string {
  const text = raw.trim();
  if (text === 'about:blank') return text;
  let u: URL;
  try {
    u = /^[a-z][a-z0-9+.-]*:/i.test(text) ? new URL(text) : base && /^https?:/.test(base) ? new URL(text, base) : new URL(`https://${text}`);
  } catch {
    throw new ActionError('url_refused', `"${raw}" is not a valid URL.`);
  }
  if (!ALLOWED_SCHEMES.has(u.protocol)) throw new ActionError('url_refused', `Cannot open "${raw}": only http and https pages are allowed.`);
  return u.toString();
}

export { ActionError };
