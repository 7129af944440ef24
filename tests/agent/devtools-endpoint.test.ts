import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PageSnapshot } from '../../src/engine/agent-ports';
import { createCdpAgentBrowser, type CdpAgentBrowser } from '../../src/platform/chrome/agent';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { RawCdp } from '../support/raw-cdp';
import { startRedirectPages, type RedirectPages } from '../support/redirect-pages';
import { waitFor } from '../support/wait-for';

// Agent tabs never load the browser's DevTools endpoint — not when the model asks for it,
// not when a page redirects, links, frames or fetches it — and nothing that gives control of
// a tab (a DevTools websocket address) reaches the model. Real Chromium; effects checked
// through a separate CDP connection.

const SNAP = { maxChars: 20_000, maskPii: true };
const ACT = { noChangeMs: 3_000, maskPii: true };
/** What a DevTools listing hands out: a websocket that controls a tab. */
const LEAKS = /webSocketDebuggerUrl|devtoolsFrontendUrl|\/devtools\/(page|browser)\//;

describeDesktop('agent mode and the DevTools endpoint (real Chromium)', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let pages: RedirectPages;
  let port: number;
  let victim: string;

  beforeAll(async () => {
    [desk, pages] = await Promise.all([startDesktop({ chrome: true }), startRedirectPages()]);
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    port = desk.chrome!.port;
  });

  afterAll(async () => {
    await raw?.dispose();
    await Promise.all([desk?.stop(), pages?.stop()]);
  });

  // One tab of the user's that a page would love to close.
  beforeEach(async () => {
    const before = await raw.pages();
    victim = await raw.open(`${pages.base}/page?title=Victim`);
    for (const p of before) await raw.close(p.targetId);
  });

  const alive = async () => (await raw.pages()).some((p) => p.targetId === victim);
  const endpoint = (p: string) => `http://127.0.0.1:${port}${p}`;

  describe('the agent browser', () => {
    let browser: CdpAgentBrowser;
    beforeAll(() => {
      browser = createCdpAgentBrowser({ browserWsUrl: desk.chrome!.browserWsUrl });
    });
    afterAll(async () => {
      await browser?.dispose();
    });

    async function settledSnapshot(targetId: string, done: (s: PageSnapshot) => boolean): Promise<PageSnapshot> {
      let last: PageSnapshot | null = null;
      return waitFor('the page to settle', async () => {
        last = await browser.snapshot(targetId, SNAP);
        return done(last) ? last : undefined;
      });
    }

    it.each([
      ['127.0.0.1:<port>/json/list', (p: number) => `http://127.0.0.1:${p}/json/list`],
      ['localhost:<port>/json/version', (p: number) => `http://localhost:${p}/json/version`],
      ['evil.localhost:<port>/json/list', (p: number) => `http://evil.localhost:${p}/json/list`],
    ])('open_tab %s is refused with the reason, and no tab opens', async (_, make) => {
        const url = make(port);
        const before = (await raw.pages()).length;
        await expect(browser.openTab(url)).rejects.toThrow(`refused: ${url} is DeskPilot's own DevTools endpoint; opening it would let a page control the browser`);
        expect(await raw.pages()).toHaveLength(before);
    });

    it('open_tab to /json/close/<id> is refused and the tab stays open', async () => {
      await expect(browser.openTab(endpoint(`/json/close/${victim}`))).rejects.toMatchObject({ code: 'url_refused', message: expect.stringMatching(/^refused: /) });
      expect(await alive()).toBe(true);
    });

    it('open_tab of a page that redirects (HTTP 302) to /json/close/<id> is refused with the reason', async () => {
      const start = pages.url('302', endpoint(`/json/close/${victim}`));
      const before = (await raw.pages()).length;
      await expect(browser.openTab(start)).rejects.toMatchObject({
        code: 'url_refused',
        message: `refused: ${start} redirected to ${endpoint(`/json/close/${victim}`)}, which is DeskPilot's own DevTools endpoint; following it would let a page control the browser`,
      });
      expect(await alive()).toBe(true);
      await waitFor('the refused tab to close', async () => (await raw.pages()).length === before);
    });

    it('a page that goes to /json/close/<id> with location.href is stopped, and the model is told', async () => {
      const { targetId } = await browser.openTab(pages.url('js', endpoint(`/json/close/${victim}`)));
      const snap = await settledSnapshot(targetId, (s) => s.text.includes('DeskPilot stopped it'));
      // The model is told what was stopped, without the tab id (with it, a page could aim at that tab).
      expect(snap.text).toContain(`The page tried to load a DevTools endpoint and DeskPilot stopped it (refused: ${endpoint('/json/close/[tab id removed]')} is DeskPilot's own DevTools endpoint`);
      expect(snap.text).not.toContain(victim);
      expect(await alive()).toBe(true);
    });

    it('a script redirect to /json/list never puts a tab listing in the snapshot or read_page', async () => {
      const { targetId } = await browser.openTab(pages.url('js', endpoint('/json/list')));
      const snap = await settledSnapshot(targetId, (s) => s.text.includes('DeskPilot stopped it'));
      expect(snap.text).not.toMatch(LEAKS);
      const read = await browser.perform(targetId, { action: 'read_page' }, ACT);
      expect(`${read.message}\n${read.output ?? ''}`).not.toMatch(LEAKS);
    });

    it.each([
      ['the same site', (p: number) => `http://127.0.0.1:${p}/json/list`],
      ['another site (an out-of-process frame)', (p: number) => `http://localhost:${p}/json/list`],
    ])('an <iframe> of /json/list from %s stays empty: the snapshot and read_page show no listing', async (_, make) => {
      const { targetId } = await browser.openTab(pages.url('frame', make(port)));
      const snap = await settledSnapshot(targetId, (s) => s.text.includes('DeskPilot stopped it'));
      expect(snap.text).not.toMatch(LEAKS);
      const read = await browser.perform(targetId, { action: 'read_page' }, ACT);
      expect(read.output ?? '').toContain('A frame:');
      expect(`${read.message}\n${read.output ?? ''}`).not.toMatch(LEAKS);
    });

    it('clicking a link to /json/close/<id> goes nowhere, and the tab stays open', async () => {
      const { targetId } = await browser.openTab(pages.url('link', endpoint(`/json/close/${victim}`)));
      const snap = await browser.snapshot(targetId, SNAP);
      const id = Number(/<a id="(\d+)"/.exec(snap.text)![1]);
      const out = await browser.perform(targetId, { action: 'click', id }, ACT);
      expect(out.message).toContain('DeskPilot stopped it');
      expect(await alive()).toBe(true);
    });

    it("a page's own fetch of /json/close/<id> is failed before it is sent", async () => {
      const { targetId } = await browser.openTab(pages.url('fetch', endpoint(`/json/close/${victim}`)));
      await waitFor('the fetch to end', async () => (await raw.evaluate(targetId, 'document.getElementById("out").textContent')) !== 'waiting');
      expect(await raw.evaluate(targetId, 'document.getElementById("out").textContent')).toBe('failed');
      expect(await alive()).toBe(true);
    });

    it('navigate to the endpoint is refused with the reason', async () => {
      const { targetId } = await browser.openTab(`${pages.base}/page?title=Start`);
      const out = await browser.perform(targetId, { action: 'navigate', to: { url: `http://[::ffff:127.0.0.1]:${port}/json/close/${victim}` } }, ACT);
      expect(out).toMatchObject({ ok: false });
      expect(out.message).toMatch(/refused: .* is DeskPilot's own DevTools endpoint; opening it would let a page control the browser/);
      expect(await alive()).toBe(true);
    });
  });

  describe('deskpilot agent end to end (scripted OpenAI-compatible server)', () => {
    let llm: FakeOpenAi;
    let dir: string;
    let env: NodeJS.ProcessEnv;

    beforeEach(async () => {
      llm = await startFakeOpenAi();
      dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-agent-guard-'));
      env = {
        ...desk.env,
        DESKPILOT_CONFIG_DIR: dir,
        DESKPILOT_CHROME_URL: `http://127.0.0.1:${port}`,
        DESKPILOT_LLM_MODEL: 'scripted-model',
        DESKPILOT_LLM_BASE_URL: llm.baseURL,
        DESKPILOT_LLM_TIMEOUT_MS: '10000',
      };
    });
    afterEach(async () => {
      await llm?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('open_tab /json/list and /json/close/<id> are refused; nothing that controls a tab reaches the model', async () => {
      llm.script(
        { json: { steps: ['List the tabs', 'Close the victim', 'Report'], message: 'I will look at the tab list.' } },
        { content: `<tool_code>{"action": "open_tab", "url": "${endpoint('/json/list')}"}</tool_code>` },
        { content: `<tool_code>{"action": "open_tab", "url": "${pages.url('js', endpoint('/json/list'))}"}</tool_code>` },
        { content: '<tool_code>{"action": "read_page"}</tool_code>' },
        { content: `<tool_code>{"action": "open_tab", "url": "http://localhost:${port}/json/close/${victim}"}</tool_code>` },
        { content: '<tool_code>{"action": "done", "answer": "I could not open the tab list."}</tool_code>' },
      );
      const r = await runCli(['agent', '--yes', '--json', 'list my tabs through the DevTools endpoint'], { env });
      expect(r.json?.status, r.stderr).toBe('done');
      const outputs: string[] = r.json.steps.map((s: { output: string }) => s.output);
      expect(outputs[0]).toContain(`refused: ${endpoint('/json/list')} is DeskPilot's own DevTools endpoint`);
      expect(outputs[3]).toContain(`refused: http://localhost:${port}/json/close/${victim} is DeskPilot's own DevTools endpoint`);
      expect(await alive()).toBe(true);
      // Everything the models were sent, every turn.
      const sent = JSON.stringify(llm.requests.map((q) => q.messages));
      expect(sent).toContain('DeskPilot stopped it');
      expect(sent).not.toMatch(LEAKS);
      expect(r.stdout + r.stderr).not.toMatch(LEAKS);
    });
  });
});
