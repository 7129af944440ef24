import CDP from 'chrome-remote-interface';
import { waitFor, WAIT_MS } from './wait-for';

// An observer that talks to Chromium directly, independent of DeskPilot's backend, so
// tests check effects with something other than the code under test.

export interface RawPage {
  targetId: string;
  title: string;
  url: string;
}

export class RawCdp {
  private constructor(private readonly client: CDP.Client) {}

  static async connect(browserWsUrl: string): Promise<RawCdp> {
    return new RawCdp(await CDP({ target: browserWsUrl, local: true }));
  }

  async pages(): Promise<RawPage[]> {
    const { targetInfos } = await this.client.Target.getTargets();
    return targetInfos
      .filter((t) => t.type === 'page' && !t.url.startsWith('devtools://'))
      .map((t) => ({ targetId: t.targetId, title: t.title, url: t.url }));
  }

  async titles(): Promise<string[]> {
    return (await this.pages()).map((p) => p.title).sort();
  }

  /**
   * Opens a tab and waits until it has loaded and Chrome lists it with its document's title.
   * (While a page loads, Chrome lists its address as the title: a listing taken then would
   * differ from one taken a moment later.)
   */
  async open(url: string, opts: { newWindow?: boolean } = {}): Promise<string> {
    const { targetId } = await this.client.Target.createTarget({ url, newWindow: opts.newWindow });
    await this.waitFor(async () => (await this.pages()).some((p) => p.targetId === targetId && p.url === url), `the tab ${url} to open`);
    await this.waitFor(async () => {
      const title = await this.evaluate(targetId, 'document.readyState === "complete" ? document.title : null');
      if (typeof title !== 'string') return false;
      const listed = (await this.pages()).find((p) => p.targetId === targetId)?.title;
      return title === '' ? !!listed : listed === title;
    }, `the tab ${url} to load`);
    return targetId;
  }

  /** Makes sure the tab is gone (one that closed meanwhile, e.g. by a CLI a failed test left behind, is fine). */
  async close(targetId: string): Promise<void> {
    await this.client.Target.closeTarget({ targetId }).catch((e: unknown) => {
      if (!/No target with given id/i.test(String(e))) throw e;
    });
    await this.waitFor(async () => !(await this.pages()).some((p) => p.targetId === targetId), `the tab ${targetId} to close`);
  }

  /** Evaluates an expression in a page through its own session. */
  async evaluate(targetId: string, expression: string): Promise<unknown> {
    const { sessionId } = await this.client.Target.attachToTarget({ targetId, flatten: true });
    try {
      const r = await this.client.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
      return (r as { result: { value: unknown } }).result.value;
    } finally {
      await this.client.Target.detachFromTarget({ sessionId }).catch(() => undefined);
    }
  }

  async waitFor(cond: () => Promise<boolean>, what = 'a condition in Chromium', timeoutMs = WAIT_MS): Promise<void> {
    await waitFor(what, cond, timeoutMs);
  }

  async dispose(): Promise<void> {
    await this.client.close();
  }
}
