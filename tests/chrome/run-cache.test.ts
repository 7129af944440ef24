import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CdpChromeBackend } from '../../src/platform/chrome/cdp-backend';
import type { CdpConnection } from '../../src/platform/chrome/cdp-connection';
import { connectChrome } from '../../src/platform/chrome/connect';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { waitFor, WAIT_MS } from '../support/wait-for';

// What one process learnt about the running Chrome (which page each tab holds, page summaries,
// what the browser is) is kept for the next process in the chrome-run folder, so a CLI call
// without the warm service does not attach to every tab again. Each backend here is a new
// "process" (a new connection, empty memory) against a real Chromium; the DevTools calls each
// one makes are counted on its socket.

const SUMMARY_TIMEOUT_MS = 10_000;

describeDesktop('the browser run cache: a new process reuses what the last one learnt (real Chromium)', () => {
  let desk: Desktop;
  let raw: CDP.Client;
  let dir: string;
  const backends: CdpChromeBackend[] = [];

  /** A backend as a new CLI process has it, counting the DevTools methods it sends. */
  function newProcess(runCacheDir: string) {
    const calls: string[] = [];
    const backend = new CdpChromeBackend(
      { profileDir: dir, defaultUserDataDirs: [], connectTimeoutMs: WAIT_MS, chromeUrl: desk.chrome!.browserWsUrl, runCacheDir },
      async (o) => {
        const c = await connectChrome(o);
        const send = c.conn.send.bind(c.conn) as CdpConnection['send'];
        c.conn.send = ((method: string, ...rest: unknown[]) => {
          calls.push(method);
          return (send as (...a: unknown[]) => Promise<unknown>)(method, ...rest);
        }) as CdpConnection['send'];
        return c;
      },
    );
    backends.push(backend);
    return { backend, attaches: () => calls.filter((m) => m === 'Target.attachToTarget').length, asked: (method: string) => calls.includes(method) };
  }

  async function open(title: string): Promise<string> {
    const { targetId } = await raw.Target.createTarget({ url: desk.pages.url('page', { title, text: `The ${title} page.` }) });
    await waitFor(`tab ${title}`, async () => (await raw.Target.getTargets()).targetInfos.some((t) => t.targetId === targetId && t.title === title));
    return targetId;
  }

  const pageIds = async (b: CdpChromeBackend) => (await b.listTabs()).map((t) => t.targetId).sort();

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    raw = await CDP({ target: desk.chrome!.browserWsUrl, local: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-run-cache-'));
    for (const title of ['Alpha', 'Bravo', 'Charlie']) await open(title);
  });

  afterAll(async () => {
    for (const b of backends) await b.dispose().catch(() => undefined);
    await raw?.close().catch(() => undefined);
    await desk?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('maps tabs and reads summaries once; the next process attaches only to what changed', async () => {
    const run = path.join(dir, 'run-a');
    const first = newProcess(run);
    const ids = await pageIds(first.backend);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const summaries = await first.backend.summarize(ids, SUMMARY_TIMEOUT_MS);
    expect([...summaries.values()]).toContain('The Alpha page.');
    expect(first.attaches()).toBeGreaterThanOrEqual(2 * ids.length); // a tab → page attach and a summary read per tab
    const described = await first.backend.describe();
    expect(described).toMatch(/^Chromium 1\d\d\./);
    expect(first.asked('Browser.getVersion')).toBe(true);
    await first.backend.dispose();

    const second = newProcess(run);
    const tabs = await second.backend.listTabs();
    expect(tabs.map((t) => t.targetId).sort()).toEqual(ids);
    expect(await second.backend.summarize(ids, SUMMARY_TIMEOUT_MS)).toEqual(summaries);
    expect(await second.backend.describe()).toBe(described);
    expect(second.attaches()).toBe(0);
    expect(second.asked('Browser.getVersion')).toBe(false);
    await second.backend.dispose();

    // One tab closed, one opened, one navigated: only the new tab is mapped and only the new pages are read.
    const alpha = tabs.find((t) => t.title === 'Alpha')!.targetId;
    const bravo = tabs.find((t) => t.title === 'Bravo')!.targetId;
    await raw.Target.closeTarget({ targetId: alpha });
    await waitFor('Alpha to close', async () => !(await raw.Target.getTargets()).targetInfos.some((t) => t.targetId === alpha));
    const delta = await open('Delta');
    const session = await raw.Target.attachToTarget({ targetId: bravo, flatten: true });
    await raw.send('Page.navigate', { url: desk.pages.url('page', { title: 'Bravo two', text: 'The second Bravo page.' }) }, session.sessionId);
    await waitFor('Bravo to navigate', async () => (await raw.Target.getTargets()).targetInfos.some((t) => t.targetId === bravo && t.title === 'Bravo two'));
    await raw.Target.detachFromTarget({ sessionId: session.sessionId });

    const third = newProcess(run);
    const now = await pageIds(third.backend);
    expect(now).toContain(delta);
    expect(now).not.toContain(alpha);
    expect(third.attaches()).toBe(1); // Delta's tab only
    const read = await third.backend.summarize(now, SUMMARY_TIMEOUT_MS);
    expect(read.get(bravo)).toBe('The second Bravo page.');
    expect(read.get(delta)).toBe('The Delta page.');
    expect(third.attaches()).toBe(3); // plus Bravo's new page and Delta's
  });

  it('a cache of another Chrome launch, or one that cannot be parsed, is not used and is replaced', async () => {
    const run = path.join(dir, 'run-b');
    const first = newProcess(run);
    const ids = await pageIds(first.backend);
    await first.backend.dispose();
    const file = path.join(run, 'tab-pages.json');
    const saved = JSON.parse(await readFile(file, 'utf8')) as { browser: string; entries: Record<string, string> };
    expect(saved.browser).toBe(desk.chrome!.browserWsUrl);
    expect(Object.values(saved.entries).sort()).toEqual(ids);

    await writeFile(file, JSON.stringify({ ...saved, browser: 'ws://127.0.0.1:1/devtools/browser/another-launch' }));
    const other = newProcess(run);
    expect(await pageIds(other.backend)).toEqual(ids);
    expect(other.attaches()).toBe(ids.length);
    await other.backend.dispose();

    await writeFile(file, '{ not json');
    const broken = newProcess(run);
    expect(await pageIds(broken.backend)).toEqual(ids);
    expect(broken.attaches()).toBe(ids.length);
    expect((JSON.parse(await readFile(file, 'utf8')) as { browser: string }).browser).toBe(desk.chrome!.browserWsUrl);
  });
});
