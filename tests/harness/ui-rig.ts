import CDP from 'chrome-remote-interface';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { WAIT_MS } from '../support/wait-for';
import { UI_BROWSER_ARGS, UI_BROWSER_PATH } from './ui-browser';
import { startWebHarness, type View, type WebHarness } from './web-harness';

// Everything a UI run needs, for the e2e tests, the screenshots and the bench: the real test
// desktop (Xvfb, two monitors, openbox, the fixture Chromium whose tabs commands act on, X11
// apps), the web harness serving the renderer against a real AppService, a second — headless —
// Chromium showing the UI page (headless so it never appears among the desktop's windows), and
// an independent CDP observer of the fixture's tabs. It imports no vitest.

export interface UiRig {
  desk: Desktop;
  /** The env the AppService runs with. */
  env: NodeJS.ProcessEnv;
  /** Temp dir: config/, data/. */
  dir: string;
  configDir: string;
  harness: WebHarness;
  browser: Browser;
  /** The fixture Chromium seen directly (not through DeskPilot). */
  raw: RawCdp;
  /**
   * A fresh context + page on a view; problems in the page (errors, CSP violations) are collected.
   * `fit`: the page's viewport takes every height the page asks its window to take (window:fit),
   * as main sizes the launcher's window. `browser`: another UI Chromium to open it in (the
   * bench's run with other flags); the rig's own by default.
   */
  open(view: View, opts?: { colorScheme?: 'light' | 'dark'; width?: number; height?: number; fit?: boolean; browser?: Browser }): Promise<UiPage>;
  /** Makes these the fixture's only tabs, in this order (titles must be unique); returns title → page targetId. */
  setTabs(titles: string[]): Promise<Map<string, string>>;
  /** The fixture's active tab title, from the browser's tab strip (Target.getTargets tab filter, embedderData.tabActive). */
  activeTabTitle(): Promise<string | null>;
  /** document.visibilityState of a page target, read in the page itself. */
  visibility(targetId: string): Promise<string>;
  /** The first top-level window of an X11 app started with the desktop, as xdotool's decimal id. */
  windowOf(app: 'xterm' | 'xclock'): string;
  stop(): Promise<void>;
}

export interface UiPage {
  page: Page;
  context: BrowserContext;
  /** Uncaught errors, console errors and CSP violations seen so far. */
  problems: string[];
  close(): Promise<void>;
}

interface TabInfo {
  targetId: string;
  type: string;
  title: string;
  url: string;
  embedderData?: { tabActive?: boolean; tabStripIndex?: number };
}

export async function startUiRig(opts: { apps?: Array<'xterm' | 'xclock'>; env?: NodeJS.ProcessEnv } = {}): Promise<UiRig> {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  const stop = async () => {
    for (const c of cleanups.reverse()) await Promise.resolve().then(c).catch(() => undefined);
    cleanups.length = 0;
  };
  try {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-ui-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const [desk, browser] = await Promise.all([
      startDesktop({ chrome: true, apps: opts.apps ?? ['xterm'] }),
      chromium.launch({ executablePath: UI_BROWSER_PATH, args: UI_BROWSER_ARGS }),
    ]);
    cleanups.push(() => desk.stop());
    cleanups.push(() => browser.close());
    const configDir = path.join(dir, 'config');
    mkdirSync(path.join(dir, 'data', 'applications'), { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...desk.env,
      DESKPILOT_CONFIG_DIR: configDir,
      DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_DATA_DIRS: '/usr/share',
      // The offline matcher only: no LLM from the developer's shell.
      DESKPILOT_LLM_MODEL: '',
      DESKPILOT_LLM_BASE_URL: '',
      // A test's own settings (agent mode's scripted LLM). rig.env is the object the service
      // reads configuration from on each use, so a test may also change it later.
      ...opts.env,
    };
    const harness = await startWebHarness({ env });
    cleanups.push(() => harness.stop());
    const raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    cleanups.push(() => raw.dispose());
    const cdp = await CDP({ target: desk.chrome!.browserWsUrl, local: true });
    cleanups.push(() => cdp.close());

    const tabs = async (): Promise<TabInfo[]> =>
      ((await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] } as never)) as unknown as { targetInfos: TabInfo[] }).targetInfos;

    return {
      desk,
      env,
      dir,
      configDir,
      harness,
      browser,
      raw,
      async open(view, o = {}) {
        const context = await (o.browser ?? browser).newContext({
          viewport: { width: o.width ?? 720, height: o.height ?? 560 },
          colorScheme: o.colorScheme ?? 'light',
          deviceScaleFactor: 1,
        });
        // Playwright waits up to 30 s for an element or a navigation; a busy machine may need longer.
        context.setDefaultTimeout(WAIT_MS);
        context.setDefaultNavigationTimeout(WAIT_MS);
        const page = await context.newPage();
        const width = o.width ?? 720;
        let unfit = () => {};
        if (o.fit) {
          // One resize at a time, the newest height last.
          let resizing: Promise<unknown> = Promise.resolve();
          unfit = harness.onFit((height) => {
            resizing = resizing.then(() => page.setViewportSize({ width, height }).catch(() => undefined));
          });
          page.on('close', unfit);
        }
        const problems: string[] = [];
        page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(`console: ${m.text()}`);
        });
        await page.goto(harness.url(view));
        await page.locator('main').first().waitFor();
        return {
          page,
          context,
          problems,
          close: async () => {
            unfit();
            await context.close();
          },
        };
      },
      async setTabs(titles) {
        const before = await raw.pages();
        const ids = new Map<string, string>();
        for (const t of titles) ids.set(t, await raw.open(desk.pages.url('page', { title: t })));
        for (const p of before) await raw.close(p.targetId);
        return ids;
      },
      async activeTabTitle() {
        return (await tabs()).find((t) => t.embedderData?.tabActive)?.title ?? null;
      },
      async visibility(targetId) {
        return String(await raw.evaluate(targetId, 'document.visibilityState'));
      },
      windowOf(app) {
        const pid = desk.pids.apps[app];
        if (!pid) throw new Error(`${app} was not started with this desktop`);
        return execFileSync('xdotool', ['search', '--onlyvisible', '--pid', String(pid)], { env: desk.env, encoding: 'utf8' }).trim().split('\n')[0]!;
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
