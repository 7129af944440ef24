import CDP from 'chrome-remote-interface';
import { sleep } from '../../src/engine/sleep';

// The suite's own view of Chromium, independent of the agent browser under test: which page
// tabs exist, evaluating a page's success check in its main world, opening and closing tabs.

export interface ProbePage {
  targetId: string;
  url: string;
  title: string;
}

export class PageProbe {
  private constructor(private readonly client: CDP.Client) {}

  static async connect(browserWsUrl: string): Promise<PageProbe> {
    return new PageProbe(await CDP({ target: browserWsUrl, local: true }));
  }

  async pages(): Promise<ProbePage[]> {
    const { targetInfos } = await this.client.Target.getTargets();
    return targetInfos.filter((t) => t.type === 'page').map((t) => ({ targetId: t.targetId, url: t.url, title: t.title }));
  }

  /**
   * Evaluates `expression` in the tab's main world (where the page's own scripts live), awaiting
   * a promise; throws with the page's exception text when it throws.
   */
  async evaluate(targetId: string, expression: string, timeoutMs = 5_000): Promise<unknown> {
    const { sessionId } = await this.client.Target.attachToTarget({ targetId, flatten: true });
    try {
      const r = (await this.client.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true, timeout: timeoutMs }, sessionId)) as {
        result: { value?: unknown };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      };
      if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
      return r.result.value;
    } finally {
      await this.client.Target.detachFromTarget({ sessionId }).catch(() => undefined);
    }
  }

  /** Opens a background tab and waits until its document has loaded. */
  async open(url: string, timeoutMs = 10_000): Promise<string> {
    const { targetId } = await this.client.Target.createTarget({ url, background: true });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = await this.evaluate(targetId, 'location.href + " " + document.readyState').catch(() => '');
      if (state === `${url} complete`) return targetId;
      if (Date.now() > deadline) throw new Error(`${url} did not load within ${timeoutMs} ms (last: ${String(state)})`);
      await sleep(25);
    }
  }

  async close(targetId: string, timeoutMs = 5_000): Promise<void> {
    await this.client.Target.closeTarget({ targetId }).catch(() => undefined);
    const deadline = Date.now() + timeoutMs;
    while ((await this.pages()).some((p) => p.targetId === targetId) && Date.now() < deadline) await sleep(25);
  }

  async dispose(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
