import path from 'node:path';
import CDP from 'chrome-remote-interface';
import type { CompanionGroup, CompanionTab } from '../../src/platform/chrome/companion-calls';
import { waitFor } from '../support/wait-for';

// The tests' own view of the tabs, through the companion extension's chrome.tabs API over a
// separate DevTools connection — written apart from DeskPilot's CompanionLink, so an effect is
// never checked by the code that caused it.

export const COMPANION_DIR = path.join(__dirname, '..', '..', 'resources', 'companion-extension');
const SCOPE = 'chrome-extension://ecdcajdogmlhngeknjdejoeecpgeapgp/';

/** The extension's tab, in the same shape DeskPilot reads (the type only; the reading is the test's own). */
export type ViewTab = CompanionTab;

export type ViewGroup = CompanionGroup;

export class CompanionView {
  private session: string | null = null;

  private constructor(private readonly client: CDP.Client) {}

  static async connect(browserWsUrl: string): Promise<CompanionView> {
    return new CompanionView(await CDP({ target: browserWsUrl, local: true }));
  }

  async tabs(): Promise<ViewTab[]> {
    return this.eval<ViewTab[]>(
      `chrome.tabs.query({}).then((ts) => ts.map((t) => ({ id: t.id, windowId: t.windowId, index: t.index, url: t.url, title: t.title, active: t.active, pinned: t.pinned, muted: t.mutedInfo.muted, audible: t.audible, groupId: t.groupId, lastAccessed: t.lastAccessed })))`,
    );
  }

  async groups(): Promise<ViewGroup[]> {
    return this.eval<ViewGroup[]>(`chrome.tabGroups.query({}).then((gs) => gs.map((g) => ({ id: g.id, windowId: g.windowId, title: g.title, color: g.color })))`);
  }

  async byTitle(title: string): Promise<ViewTab> {
    const t = (await this.tabs()).find((x) => x.title === title);
    if (!t) throw new Error(`the extension sees no tab titled ${title}`);
    return t;
  }

  /** Waits until the tab titled `title` passes `ok`, and returns it. */
  async waitForTab(title: string, what: string, ok: (t: ViewTab) => boolean): Promise<ViewTab> {
    return waitFor(`${title}: ${what}`, async () => {
      const t = (await this.tabs()).find((x) => x.title === title);
      return t && ok(t) ? t : undefined;
    });
  }

  /** Selects the tab titled `title` (setting up a test, not checking one). */
  async activate(title: string): Promise<void> {
    const t = await this.byTitle(title);
    await this.eval(`chrome.tabs.update(${t.id}, { active: true }).then(() => null)`);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** chrome-remote-interface's send, untyped: its overloads do not know every method or a session argument. */
  private send(method: string, params: object = {}, sessionId?: string): Promise<any> {
    return (this.client.send as unknown as (m: string, p: object, s?: string) => Promise<unknown>)(method, params, sessionId);
  }

  private async eval<T>(expression: string): Promise<T> {
    const sessionId = await this.attach();
    const r = (await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId)) as {
      result: { value: T };
      exceptionDetails?: { text: string };
    };
    if (r.exceptionDetails) throw new Error(`the extension's worker threw: ${r.exceptionDetails.text}`);
    return r.result.value;
  }

  private async attach(): Promise<string> {
    if (this.session) return this.session;
    const worker = async () =>
      ((await this.send('Target.getTargets', { filter: [{ type: 'service_worker' }] })) as { targetInfos: Array<{ targetId: string; url: string }> }).targetInfos.find((t) => t.url.startsWith(SCOPE));
    let w = await worker();
    if (!w) {
      // Stopped after idling: start it through a page's ServiceWorker domain.
      const { targetInfos } = await this.client.Target.getTargets();
      const page = targetInfos.find((t) => t.type === 'page')!;
      const { sessionId } = await this.client.Target.attachToTarget({ targetId: page.targetId, flatten: true });
      await this.send('ServiceWorker.enable', {}, sessionId);
      await this.send('ServiceWorker.startWorker', { scopeURL: SCOPE }, sessionId);
      await this.client.Target.detachFromTarget({ sessionId });
      w = await waitFor('the companion worker to start', worker);
    }
    const { sessionId } = await this.client.Target.attachToTarget({ targetId: w.targetId, flatten: true });
    await this.send('Runtime.runIfWaitingForDebugger', {}, sessionId);
    this.session = sessionId;
    return sessionId;
  }
}
