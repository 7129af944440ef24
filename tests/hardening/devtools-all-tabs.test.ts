import http from 'node:http';
import type net from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCdpChromeBackend, type CdpChromeBackend } from '../../src/platform/chrome/cdp-backend';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';

// D6: a page that redirects by meta refresh or by script to the DevTools endpoint (/json/list)
// after its first navigation — one open_url opened, or one the user opened — landed there, and
// the listing (every tab's websocket and target id) reached tab summaries and the planner. While
// DeskPilot watches the browser (as the warm service does), every tab is kept from the endpoint,
// and summaries never carry a target id. Real Chromium; effects read over a separate connection.

/** Pages that move themselves elsewhere after they loaded, and one that shows given text. */
async function startMovingPages(): Promise<{ url(kind: 'meta' | 'js' | 'text', arg: string): string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const arg = u.searchParams.get('arg') ?? '';
    const attr = arg.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const body =
      u.pathname === '/meta'
        ? `<meta http-equiv="refresh" content="1; url=${attr}"><title>Moving</title><p>Moving on…</p>`
        : u.pathname === '/js'
          ? `<title>Going</title><p>Going on…</p><script>setTimeout(() => { location.href = ${JSON.stringify(arg)}; }, 50);</script>`
          : `<title>Notes</title><p>${attr}</p>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">${body}</html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: (kind, arg) => `${base}/${kind}?arg=${encodeURIComponent(arg)}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describeDesktop('every tab is kept from the DevTools endpoint while DeskPilot watches (D6, real Chromium)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let user: CDP.Client;
  let pages: Awaited<ReturnType<typeof startMovingPages>>;
  let backend: CdpChromeBackend;
  let stopWatching: () => void;
  let profileDir: string;
  let listing: string;
  let victim: string;

  /** Whether a DevTools client (DeskPilot's guard) is attached to the page. */
  const attached = async (targetId: string) => (await user.Target.getTargets()).targetInfos.some((t) => t.targetId === targetId && t.attached);
  /** Waits for the guard to be on the tab; without a guard (the old code) the test goes on to show what happens then. */
  const guardOn = (targetId: string) => waitFor('the guard on the tab', () => attached(targetId)).catch(() => undefined);

  /** Waits until the tab has tried the listing (its address says so) and returns its text. */
  const afterTheMove = async (targetId: string) => {
    await waitFor('the tab to move to the endpoint address', async () => (await raw.pages()).find((p) => p.targetId === targetId)?.url.includes('/json/list') === true);
    const text = await waitFor('the tab to settle', async () => {
      const t = await raw.evaluate(targetId, 'document.readyState === "complete" ? document.documentElement.innerText : null');
      return typeof t === 'string' ? t : undefined;
    });
    return text;
  };

  beforeAll(async () => {
    [desk, pages] = await Promise.all([startDesktop({ chrome: true }), startMovingPages()]);
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    user = await CDP({ target: desk.chrome!.browserWsUrl, local: true });
    listing = `http://127.0.0.1:${desk.chrome!.port}/json/list`;
    profileDir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-alltabs-'));
    victim = await raw.open(pages.url('text', 'A tab of the user'));
    backend = createCdpChromeBackend({ chromeUrl: `http://127.0.0.1:${desk.chrome!.port}`, profileDir, defaultUserDataDirs: [] });
    await backend.listTabs();
    stopWatching = backend.watchTabs(0);
    // The guard has attached to the tab that was there before it started.
    await guardOn(victim);
  });

  afterAll(async () => {
    stopWatching?.();
    await backend?.dispose();
    await user?.close();
    await raw?.dispose();
    await Promise.all([desk?.stop(), pages?.stop()]);
    if (profileDir) await rm(profileDir, { recursive: true, force: true });
  });

  it.each([
    ['meta refresh', 'meta'],
    ['script', 'js'],
  ] as const)('a page open_url opened that moves itself to /json/list by %s never shows the listing', async (_, kind) => {
    // The page may move while open_url still watches its first navigation (a busy machine, a
    // quick script): then the move is refused there and the tab closed, which keeps the listing
    // hidden as well. Either way no tab ever shows it.
    const opened = await backend.openUrl(pages.url(kind, listing)).then(
      (r) => r,
      (e: unknown) => {
        expect((e as { code?: string }).code).toBe('url_refused');
        return null;
      },
    );
    if (opened === null) {
      const shown = await Promise.all((await raw.pages()).map((p) => raw.evaluate(p.targetId, 'document.documentElement.innerText').catch(() => '')));
      expect(shown.join('\n')).not.toContain('webSocketDebuggerUrl');
      return;
    }
    const text = await afterTheMove(opened.targetId);
    expect(text).not.toContain('webSocketDebuggerUrl');
    expect(text).not.toContain(victim);
  });

  it('a tab the user opened later, navigated to such a page, is kept away too', async () => {
    const { targetId } = await user.Target.createTarget({ url: 'about:blank' });
    await guardOn(targetId);
    const { sessionId } = await user.Target.attachToTarget({ targetId, flatten: true });
    await user.send('Page.navigate', { url: pages.url('js', listing) }, sessionId);
    const text = await afterTheMove(targetId);
    expect(text).not.toContain('webSocketDebuggerUrl');
    expect(text).not.toContain(victim);
  });

  it('a summary of a page showing target ids and DevTools addresses carries neither', async () => {
    const shown = `copied: {"id": "${victim}", "webSocketDebuggerUrl": "ws://127.0.0.1:${desk.chrome!.port}/devtools/page/${victim}"}`;
    const notes = await raw.open(pages.url('text', shown));
    const summaries = await backend.summarize([notes], 30_000);
    const summary = summaries.get(notes) ?? '';
    expect(summary).toContain('copied');
    expect(summary).not.toContain(victim);
    expect(summary).not.toContain('/devtools/page/');
  });
});
