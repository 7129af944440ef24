import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import CDP from 'chrome-remote-interface';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { watchDesk, type DeskChange } from '../../src/app/desk-watcher';
import { CdpChromeBackend } from '../../src/platform/chrome/cdp-backend';
import { connectChrome, type ConnectOptions } from '../../src/platform/chrome/connect';
import type { ChromeTab } from '../../src/engine/ports';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { COMPANION_DIR, CompanionView } from '../tabs/companion-view';

// The warm service's tab list on a real Chromium: kept from Chrome's target events, so what
// happens outside DeskPilot (a tab opened, navigated, retitled, closed) shows in the next
// snapshot without asking Chrome about every tab again. Every DevTools call the backend makes
// is counted on its connection: a listing round would show as Target.getTargets calls and one
// Browser.getWindowForTarget per tab.

describeDesktop('the warm tab list follows Chrome from its events', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let view: CompanionView;
  let tmp: string;
  const backends: CdpChromeBackend[] = [];
  const stops: Array<() => void> = [];

  beforeAll(async () => {
    desk = await startDesktop({ extensions: [COMPANION_DIR] });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    view = await CompanionView.connect(desk.chrome!.browserWsUrl);
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-live-tabs-'));
  }, 180_000);

  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    await Promise.all(backends.splice(0).map((b) => b.dispose()));
  });

  afterAll(async () => {
    await view?.close();
    await raw?.dispose();
    await desk?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** A backend as the service wires it, whose every DevTools call is counted by method. */
  function countedBackend(): { backend: CdpChromeBackend; calls: Map<string, number>; count: (m: string) => number } {
    const calls = new Map<string, number>();
    const connect = async (o: ConnectOptions) => {
      const c = await connectChrome(o);
      const send = c.conn.send.bind(c.conn);
      c.conn.send = (method: string, params?: object, sessionId?: string) => {
        calls.set(method, (calls.get(method) ?? 0) + 1);
        return send(method, params, sessionId);
      };
      return c;
    };
    const backend = new CdpChromeBackend({ chromeUrl: desk.chrome!.browserWsUrl, profileDir: path.join(tmp, 'profile'), defaultUserDataDirs: [] }, connect);
    backends.push(backend);
    return { backend, calls, count: (m) => calls.get(m) ?? 0 };
  }

  /** Runs `expression` in the companion extension's worker (started by `view` already), over a connection of its own. */
  async function inExtension(expression: string): Promise<void> {
    const client = await CDP({ target: desk.chrome!.browserWsUrl, local: true });
    try {
      const { targetInfos } = await client.Target.getTargets();
      const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'))!;
      const { sessionId } = await client.Target.attachToTarget({ targetId: worker.targetId, flatten: true });
      const r = (await (client.send as unknown as (m: string, p: object, s: string) => Promise<{ exceptionDetails?: { text: string } }>)(
        'Runtime.evaluate',
        { expression, awaitPromise: true },
        sessionId,
      ));
      if (r.exceptionDetails) throw new Error(`the extension's worker threw: ${r.exceptionDetails.text}`);
    } finally {
      await client.close();
    }
  }

  const url = (title: string) => desk.pages.url('page', { title, text: `the page of ${title}` });
  const tabTitled = (tabs: ChromeTab[], title: string) => tabs.find((t) => t.title === title);

  it('a tab opened, navigated and closed outside DeskPilot shows in the next snapshot without a listing round', async () => {
    const { backend, count } = countedBackend();
    stops.push(backend.watchTabs(0)); // no periodic check: only Chrome's events keep the list
    const first = await backend.listTabs();
    expect(first.length).toBeGreaterThan(0);
    // The DevTools guard has attached to every page there was (one Fetch.enable each) before counting starts.
    const pagesBefore = (await raw.pages()).length;
    await waitFor('the guard on every page', () => count('Fetch.enable') >= pagesBefore);
    const windowsAsked = count('Browser.getWindowForTarget');
    const attaches = count('Target.attachToTarget');

    const id = await raw.open(url('Opened outside'));
    const opened = await waitFor('the opened tab in the snapshot', async () => tabTitled(await backend.listTabs(), 'Opened outside'));
    expect(opened).toMatchObject({ targetId: id, url: url('Opened outside'), windowIndex: 1 });

    await raw.evaluate(id, `location.href = ${JSON.stringify(url('Navigated'))}`);
    await waitFor('the navigated tab', async () => {
      const t = (await backend.listTabs()).find((x) => x.targetId === id);
      return t?.title === 'Navigated' && t.url === url('Navigated');
    });
    await raw.close(id);
    await waitFor('the closed tab gone', async () => !(await backend.listTabs()).some((t) => t.targetId === id));

    // Only the new tab was asked about: its window once, one attach to find its page, and one by
    // the guard that keeps every watched tab from the DevTools endpoint (all-tabs-guard.ts). (A read
    // right after a change reads the strip and the titles of all tabs in one Target.getTargets
    // call: Chrome reports a title with the address, before the document sets it, and a tab's
    // neighbours' positions not at all.)
    expect(count('Browser.getWindowForTarget')).toBe(windowsAsked + 1);
    // The guard's attach changes the page's target info, after which the tab's page may be looked up once more.
    expect(count('Target.attachToTarget')).toBeGreaterThanOrEqual(attaches + 2);
    expect(count('Target.attachToTarget')).toBeLessThanOrEqual(attaches + 3);
    expect(backend.listingRounds).toBe(0);
  });

  it('a title the page sets later, with no event from Chrome, comes with the periodic check', async () => {
    const { backend } = countedBackend();
    stops.push(backend.watchTabs(100));
    const id = await raw.open(url('Before'));
    await waitFor('the tab', async () => tabTitled(await backend.listTabs(), 'Before'));
    await raw.evaluate(id, `document.title = 'Retitled'`);
    await waitFor('the retitled tab', async () => tabTitled(await backend.listTabs(), 'Retitled')?.targetId === id);
    expect(backend.listingRounds).toBe(0);
    await raw.close(id);
  });

  it('a new tab takes its place in the strip, and only its window is asked', async () => {
    const { backend, count } = countedBackend();
    stops.push(backend.watchTabs(0));
    const before = await backend.listTabs();
    const windowsAsked = count('Browser.getWindowForTarget');
    await raw.open(url('Last one'));
    const after = await waitFor('the new tab', async () => {
      const tabs = await backend.listTabs();
      return tabTitled(tabs, 'Last one') ? tabs : undefined;
    });
    // Created in the first window, at its end: everything before keeps its number.
    expect(after.map((t) => t.targetId).slice(0, before.length)).toEqual(before.map((t) => t.targetId));
    expect(after.map((t) => t.localIndex)).toEqual(after.map((_, i) => i + 1));
    expect(count('Browser.getWindowForTarget')).toBe(windowsAsked + 1);
    await raw.close(tabTitled(after, 'Last one')!.targetId);
  });

  it('a tab moved to a new window outside DeskPilot shows in that window', async () => {
    const { backend } = countedBackend();
    stops.push(backend.watchTabs(100)); // Chrome reports no event for a move: the periodic check finds it
    await raw.open(url('Stays'));
    const id = await raw.open(url('Moves'));
    const start = await waitFor('both tabs listed', async () => {
      const tabs = await backend.listTabs();
      return tabTitled(tabs, 'Stays') && tabTitled(tabs, 'Moves') ? tabs : undefined;
    });
    expect(new Set(start.map((t) => t.windowIndex))).toEqual(new Set([1]));
    // As a person dragging the tab out of its window would (the extension's worker does it here).
    const moved = await view.tabs().then((tabs) => tabs.find((t) => t.title === 'Moves')!);
    await inExtension(`chrome.windows.create({ tabId: ${moved.id} })`);
    const after = await waitFor('the moved tab in a window of its own', async () => {
      const tabs = await backend.listTabs();
      const t = tabs.find((x) => x.targetId === id);
      return t && t.windowIndex !== tabTitled(tabs, 'Stays')!.windowIndex ? tabs : undefined;
    });
    expect(after.filter((t) => t.windowIndex === after.find((x) => x.targetId === id)!.windowIndex).map((t) => t.title)).toEqual(['Moves']);
    expect(backend.listingRounds).toBe(0);
    await raw.close(id);
  });

  it('without the warm service watching, each listing asks Chrome (the in-process CLI path), and sees the same tabs', async () => {
    const { backend: cold, count } = countedBackend();
    const { backend: warm } = countedBackend();
    stops.push(warm.watchTabs(0));
    const id = await raw.open(url('Either way'));
    const coldTabs = await cold.listTabs();
    expect(cold.listingRounds).toBe(1);
    expect(count('Target.getTargets')).toBeGreaterThan(0);
    const warmTabs = await waitFor('the warm list to have it', async () => {
      const tabs = await warm.listTabs();
      return tabs.some((t) => t.targetId === id) ? tabs : undefined;
    });
    const shape = (tabs: ChromeTab[]) => tabs.map((t) => [t.targetId, t.title, t.url, t.windowIndex, t.localIndex]);
    expect(shape(warmTabs)).toEqual(shape(coldTabs));
    await raw.close(id);
  });

  it("the desk watcher hears of a tab change from Chrome's events, not from its once-a-second look", async () => {
    const { backend } = countedBackend();
    stops.push(backend.watchTabs(0));
    const heard: DeskChange[][] = [];
    let looks = 0;
    // The look only reads the tabs, so the watcher sees what the backend keeps.
    const desk = {
      snapshot: async () => {
        const tabs = await backend.listTabs();
        looks++;
        return {
          tabs: tabs.map((t) => ({ target_id: t.targetId, title: t.title, url: t.url, is_active: t.active, window_index: t.windowIndex })),
          running_apps: [],
          sources: { chrome: { ok: true, message: '' }, windows: { ok: false, message: 'not watched here' } },
        } as never;
      },
    };
    await backend.listTabs();
    // An hour between looks: only a tab event makes it look within this test.
    stops.push(watchDesk(desk, (what) => heard.push(what), { intervalMs: 3_600_000, tabChanges: (fn) => backend.onTabsChanged(fn) }));
    await waitFor('the first look', () => looks > 0);
    const id = await raw.open(url('Heard of'));
    await waitFor('a tabs change heard', () => heard.some((w) => w.includes('tabs')));
    await raw.close(id);
  });
});
