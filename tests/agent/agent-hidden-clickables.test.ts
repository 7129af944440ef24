import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CdpAgentBrowser } from '../../src/platform/chrome/agent';
import type { AgentPages } from '../agent-pages/serve';
import { startAgentRig, type AgentRig } from '../support/agent-rig';
import { describeDesktop } from '../support/describe-desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { idFor, lineFor } from './snapshot-lines';

// Elements a person can click that no script of our isolated world can tell apart: one with only a
// click listener (no role, tabindex or pointer cursor), and elements inside closed shadow roots.
// Real headful Chromium; effects are read through a separate raw CDP connection.

const SNAP = { maxChars: 20_000, maskPii: true };
const ACT = { noChangeMs: 30_000, maskPii: true };

describeDesktop('agent snapshot: listener-only and closed-shadow-root elements (real Chromium)', () => {
  let pages: AgentPages;
  let browser: CdpAgentBrowser;
  let raw: RawCdp;
  let rig: AgentRig | undefined;

  const rawEval = async <T>(targetId: string, expression: string) => (await raw.evaluate(targetId, expression)) as T;

  beforeAll(async () => {
    rig = await startAgentRig();
    ({ pages, browser } = rig);
    raw = await RawCdp.connect(rig.desk.chrome!.browserWsUrl);
  });
  afterAll(async () => {
    await raw?.dispose();
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
