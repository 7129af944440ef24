// Opens and places the benchmark's tabs through the browser websocket, independent of DeskPilot.
// Target.createTarget is used instead of CDP.New, which drops a URL's query after the first '&'.
import CDP from 'chrome-remote-interface';
import { sleep } from './stats';

const CREATE_BATCH = 10;
const LOAD_TIMEOUT_MS = 60_000;
const PLACE_ATTEMPTS = 20;

export interface FixtureTab {
  targetId: string;
  title: string;
}

export class TabFixture {
  private constructor(private readonly client: CDP.Client) {}

  static async connect(browserWsUrl: string): Promise<TabFixture> {
    return new TabFixture(await CDP({ target: browserWsUrl, local: true }));
  }

  async pages(): Promise<Array<{ targetId: string; title: string; url: string }>> {
    const { targetInfos } = await this.client.Target.getTargets();
    return targetInfos
      .filter((t) => t.type === 'page' && !t.url.startsWith('devtools://'))
      .map((t) => ({ targetId: t.targetId, title: t.title, url: t.url }));
  }

  /** The CDP calls a tab listing cannot do without, bare: both target lists, then every tab's window. */
  async bareListing(): Promise<number> {
    const [tabs] = await Promise.all([
      this.client.send('Target.getTargets', { filter: [{ type: 'tab' }] }),
      this.client.send('Target.getTargets', { filter: [{ type: 'page' }] }),
    ]);
    const ids = (tabs as { targetInfos: Array<{ targetId: string }> }).targetInfos.map((t) => t.targetId);
    await Promise.all(ids.map((targetId) => this.client.Browser.getWindowForTarget({ targetId })));
    return ids.length;
  }

  async windowOf(targetId: string): Promise<number> {
    return (await this.client.Browser.getWindowForTarget({ targetId })).windowId;
  }

  async version(): Promise<string> {
    return (await this.client.Browser.getVersion()).product;
  }

  async close(targetId: string): Promise<void> {
    await this.client.Target.closeTarget({ targetId });
  }

  /** Opens the first tab of a new window; resolves with its target id once its page loaded. */
  async openWindow(tab: { url: string; title: string }): Promise<string> {
    const { targetId } = await this.client.Target.createTarget({ url: tab.url, newWindow: true });
    await this.waitLoaded([{ targetId, title: tab.title }]);
    return targetId;
  }

  /**
   * Opens `tabs` in the window of `anchorId` and waits until every page has its title.
   * Chrome puts a new tab in its last active window and CDP cannot name a window, so the
   * anchor's window is activated first and the first new tab is checked (and re-tried) until
   * it lands there; the rest follow in parallel batches.
   */
  async openIn(anchorId: string, tabs: ReadonlyArray<{ url: string; title: string }>): Promise<string[]> {
    if (tabs.length === 0) return [];
    const windowId = await this.windowOf(anchorId);
    const ids: string[] = [];
    const [first, ...rest] = tabs;
    for (let attempt = 1; ; attempt++) {
      await this.client.Target.activateTarget({ targetId: anchorId });
      if (attempt > 1) await sleep(100 * attempt);
      const { targetId } = await this.client.Target.createTarget({ url: first!.url });
      if ((await this.windowOf(targetId)) === windowId) {
        ids.push(targetId);
        break;
      }
      await this.close(targetId);
      if (attempt >= PLACE_ATTEMPTS) throw new Error(`could not open a tab in window ${windowId} (the anchor's window never became the active one)`);
    }
    for (let i = 0; i < rest.length; i += CREATE_BATCH) {
      const batch = rest.slice(i, i + CREATE_BATCH);
      const created = await Promise.all(batch.map((t) => this.client.Target.createTarget({ url: t.url })));
      ids.push(...created.map((c) => c.targetId));
    }
    const windows = await Promise.all(ids.map((id) => this.windowOf(id)));
    const stray = windows.filter((w) => w !== windowId).length;
    if (stray > 0) throw new Error(`${stray} of ${ids.length} new tabs landed outside window ${windowId}`);
    await this.waitLoaded(ids.map((targetId, i) => ({ targetId, title: tabs[i]!.title })));
    return ids;
  }

  /**
   * Replaces the about:blank Chromium started with by `specs`: the first `inFirst` in its window,
   * the rest in a second window.
   */
  async openInTwoWindows(specs: ReadonlyArray<{ url: string; title: string }>, inFirst: number): Promise<void> {
    const [initial] = await this.pages();
    if (!initial) throw new Error('Chromium has no initial tab');
    await this.openIn(initial.targetId, specs.slice(0, inFirst));
    await this.close(initial.targetId);
    const second = specs.slice(inFirst);
    if (second.length === 0) return;
    const anchor = await this.openWindow(second[0]!);
    await this.openIn(anchor, second.slice(1));
  }

  /** Waits until each page shows its expected title (its document was parsed). */
  async waitLoaded(tabs: readonly FixtureTab[]): Promise<void> {
    const deadline = Date.now() + LOAD_TIMEOUT_MS;
    for (;;) {
      const titles = new Map((await this.pages()).map((p) => [p.targetId, p.title]));
      const pending = tabs.filter((t) => titles.get(t.targetId) !== t.title);
      if (pending.length === 0) return;
      if (Date.now() > deadline) throw new Error(`${pending.length} of ${tabs.length} tabs did not load within ${LOAD_TIMEOUT_MS / 1000} s`);
      await sleep(50);
    }
  }

  async dispose(): Promise<void> {
    await this.client.close();
  }
}
