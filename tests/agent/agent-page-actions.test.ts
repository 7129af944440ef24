import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CdpAgentBrowser } from '../../src/platform/chrome/agent';
import type { AgentPages } from '../agent-pages/serve';
import { startAgentRig, type AgentRig } from '../support/agent-rig';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';
import { idFor } from './snapshot-lines';

// Agent page actions that pages must hear or that reach beyond the visible screen, against a real
// headful Chromium. Effects are checked through a separate raw CDP connection, never through the
// code under test.

const SNAP = { maxChars: 20_000, maskPii: true };
const ACT = { noChangeMs: 30_000, maskPii: true };


describeDesktop('agent page actions (real Chromium)', () => {
  let pages: AgentPages;
  let browser: CdpAgentBrowser;
  let raw: CDP.Client;
  let rig: AgentRig | undefined;

  async function rawEval<T = unknown>(targetId: string, expression: string): Promise<T> {
    const { sessionId } = await raw.Target.attachToTarget({ targetId, flatten: true });
    try {
      const r = (await raw.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId)) as { result: { value: T } };
      return r.result.value;
    } finally {
      await raw.Target.detachFromTarget({ sessionId }).catch(() => undefined);
    }
  }

  const open = async (path: string) => (await browser.openTab(pages.url(path))).targetId;

  beforeAll(async () => {
    rig = await startAgentRig();
    ({ pages, raw, browser } = rig);
  });
  afterAll(async () => {
    await rig?.stop();
  });

  it('types with key presses, so an autocomplete that listens only to keys shows its suggestions', async () => {
    const tab = await open('/autocomplete.html');
    const city = idFor((await browser.snapshot(tab, SNAP)).text, /label="City"/);
    const typed = await browser.perform(tab, { action: 'type', id: city, value: 'Par' }, ACT);
    expect(typed).toMatchObject({ ok: true });
    expect(await rawEval(tab, "document.getElementById('city').value")).toBe('Par');
    expect(await rawEval(tab, "document.getElementById('keys').textContent")).toBe('3');
    await waitFor('suggestions', async () => (await rawEval<string>(tab, "document.getElementById('suggestions').textContent")) === 'ParisParma');
  });

  it('types long text quickly, still ending with a key press the page hears', async () => {
    const tab = await open('/autocomplete.html');
    const city = idFor((await browser.snapshot(tab, SNAP)).text, /label="City"/);
    const long = `Berlin ${'x'.repeat(100)}`;
    expect(await browser.perform(tab, { action: 'type', id: city, value: long }, ACT)).toMatchObject({ ok: true });
    expect(await rawEval(tab, "document.getElementById('city').value")).toBe(long);
    expect(await rawEval(tab, "document.getElementById('keys').textContent")).toBe('1');
  });

  it('reports a field that does not hold what was typed', async () => {
    const tab = await open('/autocomplete.html');
    const code = idFor((await browser.snapshot(tab, SNAP)).text, /label="Code"/);
    const typed = await browser.perform(tab, { action: 'type', id: code, value: 'ab1', submit: true }, ACT);
    expect(typed).toMatchObject({ ok: false, code: 'action_failed' });
    expect(typed.message).toBe(`Typed "ab1" into element ${code}, but the field now holds "AB1", so Enter was not pressed.`);
    expect(await rawEval(tab, "document.getElementById('upper').value")).toBe('AB1');
  });

  it('scrolls an element far below into view', async () => {
    const tab = await open('/scroll-wait.html');
    const snap = await browser.snapshot(tab, { maxChars: 20_000, maskPii: true });
    expect(snap.text).not.toMatch(/>Far button</);
    // Far elements are listed once scrolled near; a bigger range reaches them by number.
    await browser.perform(tab, { action: 'scroll', direction: 'bottom' }, ACT);
    const far = idFor((await browser.snapshot(tab, SNAP)).text, />Far button</);
    await browser.perform(tab, { action: 'scroll', direction: 'top' }, ACT);
    expect(await rawEval(tab, 'scrollY')).toBe(0);
    const r = await browser.perform(tab, { action: 'scroll', direction: 'toElement', id: far }, ACT);
    expect(r).toMatchObject({ ok: true, changed: true, message: `Scrolled element ${far} into view.` });
    expect(await rawEval(tab, "(() => { const b = document.getElementById('far').getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; })()")).toBe(true);
    const missing = await browser.perform(tab, { action: 'scroll', direction: 'toElement' }, ACT);
    expect(missing).toMatchObject({ ok: false, code: 'invalid_argument' });
  });

  it('waits for an element by CSS selector (bounded) and reads bounded HTML without scripts or passwords', async () => {
    const tab = await open('/scroll-wait.html');
    const save = idFor((await browser.snapshot(tab, SNAP)).text, />Save</);
    await rawEval(tab, "document.getElementById('reveal').click()");
    expect(await browser.perform(tab, { action: 'wait_for', condition: { selector: '.toast' }, timeout_ms: 30_000 }, ACT)).toMatchObject({ ok: true });
    expect(await rawEval(tab, "document.querySelector('.toast').textContent")).toBe('Saved');
    const never = await browser.perform(tab, { action: 'wait_for', condition: { selector: '.never' }, timeout_ms: 200 }, ACT);
    expect(never).toMatchObject({ ok: false, code: 'timed_out' });
    expect(await browser.perform(tab, { action: 'wait_for', condition: { selector: '[[' }, timeout_ms: 200 }, ACT)).toMatchObject({ ok: false, code: 'invalid_argument' });

    const page = await browser.perform(tab, { action: 'get_html', max_chars: 20_000 }, ACT);
    expect(page.ok).toBe(true);
    expect(page.output).toContain('<p data-price="12.50">Price: 12.50</p>');
    expect(page.output).not.toContain('hunter22');
    expect(page.output).not.toContain('window.x');
    const cut = await browser.perform(tab, { action: 'get_html', id: save, max_chars: 100 }, ACT);
    expect(cut.output).toMatch(/^<button id="reveal"/);
    expect(cut.output!.length).toBeLessThan(200);
  });
});
