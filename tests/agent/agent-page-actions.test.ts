import CDP from 'chrome-remote-interface';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CdpAgentBrowser } from '../../src/platform/chrome/agent';
import type { AgentPages } from '../agent-pages/serve';
import { startAgentRig, type AgentRig } from '../support/agent-rig';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';

// Agent page actions that pages must hear or that reach beyond the visible screen, against a real
// headful Chromium. Effects are checked through a separate raw CDP connection, never through the
// code under test.

const SNAP = { maxChars: 20_000, maskPii: true };
const ACT = { noChangeMs: 30_000, maskPii: true };

function idFor(text: string, pattern: RegExp): number {
  const line = text.split('\n').find((l) => pattern.test(l));
  if (!line) throw new Error(`no element matching ${pattern} in:\n${text}`);
  return Number(/ id="(\d+)"/.exec(line)![1]);
}

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
});
