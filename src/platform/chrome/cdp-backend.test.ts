import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChromeUnavailableError, TabGoneError } from '../../engine/errors';
import type { CdpConnection, CdpListener } from './cdp-connection';
import { CdpChromeBackend } from './cdp-backend';
import type { BrowserConnection } from './connect';
import { TabsNotClosedError } from './tabs-not-closed-error';

// The backend's logic against a scripted browser: the cases a real Chromium 156 never shows
// (no embedderData, no tab targets, a page swapped under its tab, a tab that refuses to close).
// Real-browser behaviour is covered in tests/chrome/cdp-backend.test.ts.

interface FakeTab {
  tabId: string;
  pageId: string;
  url: string;
  title: string;
  windowId: number;
  frozen?: boolean;
  text?: string;
  unclosable?: boolean;
}

class FakeBrowser extends EventEmitter implements CdpConnection {
  tabs: FakeTab[] = [];
  active = new Map<number, string>(); // windowId → tabId
  embedder = true;
  tabTargets = true;
  /** Targets with a page but no window (extension background pages). */
  windowless: Array<{ targetId: string; url: string; title: string }> = [];
  calls: string[] = [];
  /** What navigator.userAgentData says in its pages; null as in a page that is not a secure context. */
  brands: string[] | null = null;
  private sessions = new Map<string, string>(); // sessionId → targetId
  private nextSession = 0;

  constructor() {
    super();
    this.setMaxListeners(1000);
  }

  add(tab: Omit<FakeTab, 'title' | 'url'> & Partial<FakeTab>): void {
    this.tabs.push({ title: tab.pageId, url: `https://${tab.pageId}.example/`, ...tab });
    if (!this.active.has(tab.windowId)) this.active.set(tab.windowId, tab.tabId);
  }

  private stripIndex(t: FakeTab): number {
    return this.tabs.filter((x) => x.windowId === t.windowId).indexOf(t);
  }

  async send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<unknown> {
    this.calls.push(method);
    const byAny = (id: unknown) => this.tabs.find((t) => t.tabId === id || t.pageId === id);
    switch (method) {
      case 'Target.getTargets': {
        const type = (params.filter as Array<{ type: string }> | undefined)?.[0]?.type;
        if (type === 'tab') {
          if (!this.tabTargets) return { targetInfos: [] };
          return {
            targetInfos: this.tabs.map((t) => ({
              targetId: t.tabId,
              type: 'tab',
              title: t.title,
              url: t.url,
              attached: false,
              canAccessOpener: false,
              ...(this.embedder
                ? { embedderData: { tabStripIndex: this.stripIndex(t), tabActive: this.active.get(t.windowId) === t.tabId, tabPinned: false } }
                : {}),
            })),
          };
        }
        return {
          targetInfos: [
            ...this.tabs.map((t) => ({ targetId: t.pageId, type: 'page', title: t.title, url: t.url, attached: false, canAccessOpener: false })),
            ...this.windowless.map((w) => ({ ...w, type: 'page', attached: false, canAccessOpener: false })),
          ],
        };
      }
      case 'Target.attachToTarget': {
        const id = params.targetId as string;
        if (!byAny(id) && !this.windowless.some((w) => w.targetId === id)) throw new Error('No target with given id found');
        const sid = `S${this.nextSession++}`;
        this.sessions.set(sid, id);
        return { sessionId: sid };
      }
      case 'Target.setAutoAttach': {
        const tab = this.tabs.find((t) => t.tabId === this.sessions.get(sessionId!));
        if (tab) {
          setImmediate(() =>
            this.emit(`Target.attachedToTarget.${sessionId}`, {
              sessionId: `${sessionId}-child`,
              targetInfo: { targetId: tab.pageId, type: 'page', title: tab.title, url: tab.url, attached: true, canAccessOpener: false },
              waitingForDebugger: false,
            }),
          );
        }
        return {};
      }
      case 'Target.detachFromTarget':
        this.sessions.delete(params.sessionId as string);
        return {};
      case 'Browser.getWindowForTarget': {
        const t = byAny(params.targetId);
        if (!t) throw new Error('No target with given id');
        return { windowId: t.windowId, bounds: {} };
      }
      case 'Runtime.evaluate': {
        const t = byAny(this.sessions.get(sessionId!));
        if (!t) throw new Error('Session with given id not found');
        if (t.frozen) return new Promise(() => undefined);
        const expr = params.expression as string;
        if (expr.startsWith('navigator.userAgentData')) return { result: { type: 'object', value: this.brands } };
        if (expr === 'document.visibilityState') {
          return { result: { type: 'string', value: this.active.get(t.windowId) === t.tabId ? 'visible' : 'hidden' } };
        }
        return { result: { type: 'object', value: { text: t.text ?? '', complete: true } } };
      }
      case 'Target.activateTarget': {
        const t = byAny(params.targetId);
        if (!t) throw new Error('No target with given id found');
        this.active.set(t.windowId, t.tabId);
        return {};
      }
      case 'Target.closeTarget': {
        const t = byAny(params.targetId);
        if (!t) throw new Error('No target with given id found');
        if (!t.unclosable) setTimeout(() => (this.tabs = this.tabs.filter((x) => x !== t)), 30);
        return { success: true };
      }
      case 'Browser.getVersion':
        return { product: 'Chrome/156.0.1.2', protocolVersion: '1.3', revision: '', userAgent: '', jsVersion: '' };
      default:
        throw new Error(`fake: unexpected ${method}`);
    }
  }

  override on(event: string, listener: CdpListener): this {
    return super.on(event, listener);
  }

  override removeListener(event: string, listener: CdpListener): this {
    return super.removeListener(event, listener);
  }

  async close(): Promise<void> {
    this.calls.push('close');
  }

  count(method: string): number {
    return this.calls.filter((c) => c === method).length;
  }
}

function backendFor(...browsers: FakeBrowser[]) {
  let connects = 0;
  const backend = new CdpChromeBackend({ profileDir: '/nonexistent', defaultUserDataDirs: [], closeTimeoutMs: 300 }, async () => {
    const conn = browsers[Math.min(connects++, browsers.length - 1)]!;
    return { conn, browserWsUrl: 'ws://127.0.0.1:9222/devtools/browser/x', source: 'test' } satisfies BrowserConnection;
  });
  return { backend, connects: () => connects };
}

function twoWindows(): FakeBrowser {
  const b = new FakeBrowser();
  // Insertion order is the tab strip; window 7 is listed first so ordering by id is visible.
  b.add({ tabId: 'T3', pageId: 'P3', windowId: 7 });
  b.add({ tabId: 'T1', pageId: 'P1', windowId: 3 });
  b.add({ tabId: 'T2', pageId: 'P2', windowId: 3 });
  b.active.set(3, 'T2');
  return b;
}

describe('CdpChromeBackend against a scripted fake browser (old-Chrome fallbacks real Chromium 156 cannot show)', () => {
  it('orders by window id then tab strip, marks the active tab, and maps each tab only once', async () => {
    const b = twoWindows();
    const { backend } = backendFor(b);
    const tabs = await backend.listTabs();
    expect(tabs.map((t) => [t.targetId, t.windowIndex, t.localIndex, t.active])).toEqual([
      ['P1', 1, 1, false],
      ['P2', 1, 2, true],
      ['P3', 2, 1, true],
    ]);
    expect(b.count('Target.attachToTarget')).toBe(3);
    await backend.listTabs();
    expect(b.count('Target.attachToTarget')).toBe(3);
    // Every attach was detached again.
    expect(b.count('Target.detachFromTarget')).toBe(3);
  });

  it('re-maps only a tab whose page was swapped, and drops closed tabs from the cache', async () => {
    const b = twoWindows();
    const { backend } = backendFor(b);
    await backend.listTabs();
    b.tabs.find((t) => t.tabId === 'T1')!.pageId = 'P1b';
    b.tabs = b.tabs.filter((t) => t.tabId !== 'T3');
    const tabs = await backend.listTabs();
    expect(tabs.map((t) => t.targetId)).toEqual(['P1b', 'P2']);
    expect(b.count('Target.attachToTarget')).toBe(4);
  });

  it('without embedderData: first-seen order and the visible tab as active', async () => {
    const b = twoWindows();
    b.embedder = false;
    const { backend } = backendFor(b);
    const tabs = await backend.listTabs();
    expect(tabs.map((t) => [t.targetId, t.windowIndex, t.active])).toEqual([
      ['P1', 1, false],
      ['P2', 1, true],
      ['P3', 2, true],
    ]);
    b.add({ tabId: 'T0', pageId: 'P0', windowId: 3 });
    expect((await backend.listTabs()).map((t) => t.targetId)).toEqual(['P1', 'P2', 'P0', 'P3']);
  });

  it('without tab targets: lists windowed pages, skipping windowless and DevTools pages', async () => {
    const b = twoWindows();
    b.tabTargets = false;
    b.windowless.push({ targetId: 'BG', url: 'chrome-extension://abc/bg.html', title: 'bg' });
    b.add({ tabId: 'TD', pageId: 'PD', windowId: 9, url: 'devtools://devtools/bundled/inspector.html' });
    const { backend } = backendFor(b);
    const tabs = await backend.listTabs();
    expect(tabs.map((t) => t.targetId).sort()).toEqual(['P1', 'P2', 'P3']);
    expect(tabs.filter((t) => t.active).map((t) => t.targetId).sort()).toEqual(['P2', 'P3']);
    expect(b.count('Target.attachToTarget')).toBe(3); // visibility probes only, no tab mapping
  });

  it('summarize: a frozen tab yields null without holding back the others; answers are cached', async () => {
    const b = twoWindows();
    b.tabs[0]!.frozen = true;
    b.tabs[1]!.text = 'first words';
    const { backend } = backendFor(b);
    const got = await backend.summarize(['P3', 'P1', 'GONE'], 100);
    expect(got).toEqual(new Map([['P3', null], ['P1', 'first words'], ['GONE', null]]));
    const evaluations = b.count('Runtime.evaluate');
    await backend.summarize(['P1'], 100);
    expect(b.count('Runtime.evaluate')).toBe(evaluations);
  });

  it('activateTab throws TabGoneError for a vanished target', async () => {
    const { backend } = backendFor(twoWindows());
    await expect(backend.activateTab('NOPE')).rejects.toBeInstanceOf(TabGoneError);
  });

  it('closeTabs reports missing ids and refuses to report an unclosable tab as closed', async () => {
    const b = twoWindows();
    const { backend } = backendFor(b);
    expect(await backend.closeTabs(['P1', 'NOPE', 'P1'])).toEqual({ closed: ['P1'], missing: ['NOPE'] });
    b.tabs.find((t) => t.pageId === 'P2')!.unclosable = true;
    const err = await backend.closeTabs(['P2', 'P3']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TabsNotClosedError);
    expect(err).toMatchObject({ stillOpen: ['P2'], closed: ['P3'], missing: [] });
  });

  it('reconnects after the socket drops and never reuses a disposed backend', async () => {
    const first = twoWindows();
    const second = twoWindows();
    const { backend, connects } = backendFor(first, second);
    await backend.listTabs();
    first.emit('disconnect');
    await backend.listTabs();
    expect(connects()).toBe(2);
    expect(second.count('Target.getTargets')).toBeGreaterThan(0);
    await backend.dispose();
    expect(second.calls).toContain('close');
    await expect(backend.listTabs()).rejects.toBeInstanceOf(ChromeUnavailableError);
  });

  it('describe names the product, version and endpoint', async () => {
    const { backend } = backendFor(twoWindows());
    expect(await backend.describe()).toBe('Chrome 156.0.1.2 at 127.0.0.1:9222');
  });

  it('a brand guessed from the version string is asked again, and only a brand a page told is kept for the next process (real files)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-describe-'));
    try {
      const b = twoWindows();
      b.add({ tabId: 'T9', pageId: 'P9', windowId: 3, url: 'http://127.0.0.1:8080/' }); // a secure context: the probe asks it
      const connect = async () => ({ conn: b, browserWsUrl: 'ws://127.0.0.1:9222/devtools/browser/x', source: 'test' }) satisfies BrowserConnection;
      const first = new CdpChromeBackend({ profileDir: '/nonexistent', defaultUserDataDirs: [], runCacheDir: dir }, connect);
      expect(await first.describe()).toBe('Chrome 156.0.1.2 at 127.0.0.1:9222');
      expect(existsSync(path.join(dir, 'browser.json'))).toBe(false);
      b.brands = ['Chromium', 'Not.A/Brand'];
      // The same process asks again: its guess was not kept either.
      expect(await first.describe()).toBe('Chromium 156.0.1.2 at 127.0.0.1:9222');
      expect(existsSync(path.join(dir, 'browser.json'))).toBe(true);
      b.brands = null;
      const next = new CdpChromeBackend({ profileDir: '/nonexistent', defaultUserDataDirs: [], runCacheDir: dir }, connect);
      expect(await next.describe()).toBe('Chromium 156.0.1.2 at 127.0.0.1:9222');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
