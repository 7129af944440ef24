import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CdpAgentBrowser } from '../../src/platform/chrome/agent';
import type { AgentPages } from '../agent-pages/serve';
import { startAgentRig, type AgentRig } from '../support/agent-rig';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';

// Elements a person can click that no script of our isolated world can tell apart: one with only a
// click listener (no role, tabindex or pointer cursor), and elements inside closed shadow roots.
// Real headful Chromium; effects are read through a separate raw CDP connection.

const SNAP = { maxChars: 20_000, maskPii: true };
const ACT = { noChangeMs: 30_000, maskPii: true };

function lineFor(text: string, pattern: RegExp): string | undefined {
  return text.split('\n').find((l) => pattern.test(l));
}

function idFor(text: string, pattern: RegExp): number {
  const line = lineFor(text, pattern);
  if (!line) throw new Error(`no element matching ${pattern} in:\n${text}`);
  return Number(/ id="(\d+)"/.exec(line)![1]);
}

describeDesktop('agent snapshot: listener-only and closed-shadow-root elements (real Chromium)', () => {
  let pages: AgentPages;
  let browser: CdpAgentBrowser;
  let raw: CDP.Client;
  let rig: AgentRig | undefined;

  async function rawEval<T = unknown>(targetId: string, expression: string): Promise<T> {
    const { sessionId } = await raw.Target.attachToTarget({ targetId, flatten: true });
    try {
      const r = (await raw.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)) as { result: { value: T } };
      return r.result.value;
    } finally {
      await raw.Target.detachFromTarget({ sessionId }).catch(() => undefined);
    }
  }

  beforeAll(async () => {
    rig = await startAgentRig();
    ({ pages, raw, browser } = rig);
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('lists them, and clicks each by its number', async () => {
    const tab = (await browser.openTab(pages.url('/hidden-clickables.html'))).targetId;
    const snap = await browser.snapshot(tab, SNAP);
    const lone = idFor(snap.text, />Show details</);
    const pressed = idFor(snap.text, />Press me</);
    const closed = idFor(snap.text, />Closed button</);
    const link = idFor(snap.text, />Closed link</);
    expect(lineFor(snap.text, />Closed link</)).toMatch(/^<a id="\d+" href="[^"]+">Closed link<\/a>$/);
    // A container whose listener handles its own button is not an element of its own.
    expect(lineFor(snap.text, /A container/)).toBeUndefined();
    expect(lineFor(snap.text, />Inner button</)).toBeDefined();

    const out = () => rawEval<string>(tab, "document.getElementById('out').textContent");
    expect(await browser.perform(tab, { action: 'click', id: lone }, ACT)).toMatchObject({ ok: true });
    await waitFor('the details', async () => (await out()) === 'details shown');
    expect(await browser.perform(tab, { action: 'click', id: pressed }, ACT)).toMatchObject({ ok: true });
    await waitFor('the press', async () => (await out()) === 'pressed');
    expect(await browser.perform(tab, { action: 'click', id: closed }, ACT)).toMatchObject({ ok: true });
    await waitFor('the closed button', async () => (await out()) === 'closed button clicked');
    expect(await browser.perform(tab, { action: 'click', id: link }, ACT)).toMatchObject({ ok: true });
    await waitFor('the closed link', async () => (await rawEval<string>(tab, 'location.hash')) === '#from-closed-link');
    // Snapshots go on answering, with the same numbers (what DevTools found is not asked again).
    for (let i = 0; i < 4; i++) {
      const again = (await browser.snapshot(tab, SNAP)).text;
      expect([idFor(again, />Show details</), idFor(again, />Closed button</), idFor(again, />Closed link</)]).toEqual([lone, closed, link]);
    }
  });

  it('finds a listener added after the first snapshot', async () => {
    const tab = (await browser.openTab(pages.url('/hidden-clickables.html'))).targetId;
    expect((await browser.snapshot(tab, SNAP)).text).not.toMatch(/Three unread/);
    await rawEval(
      tab,
      "const d = document.createElement('div'); d.textContent = 'Three unread'; d.className = 'plain'; " +
        "d.addEventListener('click', () => { document.getElementById('out').textContent = 'opened'; }); document.body.prepend(d); 1",
    );
    const late = idFor((await browser.snapshot(tab, SNAP)).text, />Three unread</);
    expect(await browser.perform(tab, { action: 'click', id: late }, ACT)).toMatchObject({ ok: true });
    await waitFor('the late element', async () => (await rawEval<string>(tab, "document.getElementById('out').textContent")) === 'opened');
  });
});
