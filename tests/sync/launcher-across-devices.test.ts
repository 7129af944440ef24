import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { commandField, UI_BROWSER_ARGS, UI_BROWSER_PATH } from '../harness/ui-browser';
import { startWebHarness, type WebHarness } from '../harness/web-harness';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { describeDesktop } from '../support/describe-desktop';
import type { Desktop } from '../support/desktop';
import type { RawCdp } from '../support/raw-cdp';
import { POLL, WAIT_MS, waitFor } from '../support/wait-for';
import { onlineWithDesk, startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

// The app's launcher across devices: the real renderer in a headless browser, served by the web
// harness with the real AppService of device A; B's warm service runs the device worker on the
// other test desktop. Picking B sends the words there, the confirmation is asked on A's screen
// naming B, the result is badged with B; the live rows say they are A's. Effects are read in
// each Chromium directly.

const A = 'work laptop';
const B = 'home desktop';

describeDesktop('the launcher sends words to another device', () => {
  let rig: TwoDevices;
  let deskB: Desktop;
  let rawA: RawCdp;
  let rawB: RawCdp;
  let harness: WebHarness;
  let browser: Browser;
  let page: Page;
  let llm: FakeOpenAi;

  beforeAll(async () => {
    [rig, browser, llm] = await Promise.all([startTwoDevices(A, B), chromium.launch({ executablePath: UI_BROWSER_PATH, args: UI_BROWSER_ARGS }), startFakeOpenAi()]);
    ({ deskB, rawA, rawB } = rig);
    // These tests are about the launcher here: B's user lets A close things on B without a yes on B
    // (otherwise a close waits there for one: tests/sync/remote-consent*.test.ts).
    const allowed = await rig.b.cli(['devices', 'allow', A, '--without-asking']);
    if (allowed.code !== 0) throw new Error(`devices allow failed: ${allowed.stderr}`);
    await rig.b.startService();
    await onlineWithDesk(rig.obs, B);
    // The LLM (the scripted server) plans only what the offline matcher is not sure of.
    harness = await startWebHarness({ env: rig.a.env({ DESKPILOT_LLM_BASE_URL: llm.baseURL, DESKPILOT_LLM_MODEL: 'scripted-model', DESKPILOT_LLM_TIMEOUT_MS: '20000' }) });
    const context = await browser.newContext({ viewport: { width: 720, height: 560 } });
    context.setDefaultTimeout(WAIT_MS);
    page = await context.newPage();
    await page.goto(harness.url('launcher'));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.stop();
    await llm?.stop();
    await stopTwoDevices(rig ?? {});
  });

  const urls = async (raw: RawCdp) => (await raw.pages()).map((p) => p.url);

  it('the picker lists both computers; live rows say they are this computer\'s', async () => {
    const picker = page.getByRole('combobox', { name: 'Run on device' });
    await picker.waitFor();
    expect(await picker.locator('option').allTextContents()).toEqual([`${A} (this computer)`, B]);
    await rawA.open(deskB.pages.url('page', { title: 'Walrus Facts' }));
    await commandField(page).fill('walrus');
    await expect.poll(() => page.locator('.live-row .live-device').first().textContent(), POLL).toContain(A);
    await commandField(page).fill('');
  });

  it('with B picked, "close the kitten gallery tab" is confirmed here naming B, closes B\'s tab, and A\'s stays', async () => {
    const url = deskB.pages.url('page', { title: 'Kitten Gallery' });
    await Promise.all([rawB.open(url), rawA.open(url)]);
    await waitFor('B to publish the kitten tab', () => {
      const id = rig.obs.doc.devices().find((r) => r.name === B)!.id;
      return rig.obs.doc.readSnapshot(id).snapshot?.tabs.some((t) => t.url === url && t.title === 'Kitten Gallery') ?? false;
    });
    await page.getByRole('combobox', { name: 'Run on device' }).selectOption({ label: B });
    await commandField(page).fill('close the kitten gallery tab');
    await commandField(page).press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: POLL.timeout });
    expect(await dialog.getByRole('heading').textContent()).toBe(`On ${B}: Close this tab?`);
    expect(await urls(rawB)).toContain(url);
    await dialog.getByRole('button', { name: 'Close them' }).click();
    await dialog.waitFor({ state: 'detached', timeout: POLL.timeout });
    await expect.poll(() => page.locator('.result-device').textContent(), POLL).toBe(`On ${B}`);
    await rawB.waitFor(async () => !(await urls(rawB)).includes(url), 'the tab on B to close');
    expect(await urls(rawA)).toContain(url);
  });

  it('with this computer picked, the LLM sees B\'s desk, names B, and the confirmation and the result say B', async () => {
    const url = deskB.pages.url('page', { title: 'Otter Pictures' });
    await Promise.all([rawB.open(url), rawA.open(url)]);
    let index = 0;
    await waitFor('B to publish the otter tab', () => {
      const id = rig.obs.doc.devices().find((r) => r.name === B)!.id;
      index = rig.obs.doc.readSnapshot(id).snapshot?.tabs.find((t) => t.url === url && t.title === 'Otter Pictures')?.index ?? 0;
      return index > 0;
    });
    await page.getByRole('combobox', { name: 'Run on device' }).selectOption({ label: `${A} (this computer)` });
    const before = llm.requests.length;
    llm.script({ json: { commands: [{ type: 'close_tab', tab_indices: [index] }], needs_clarification: false, clarification_reason: null, device: B } });
    await commandField(page).fill('get rid of the otter thing over on my other box');
    await commandField(page).press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: POLL.timeout });
    expect(await dialog.getByRole('heading').textContent()).toBe(`On ${B}: Close this tab?`);
    const context = llm.requests[before]!.messages!.find((m) => m.role === 'user')!.content;
    expect(context.slice(context.indexOf(`=== device "${B}"`))).toContain('Otter Pictures');
    await dialog.getByRole('button', { name: 'Close them' }).click();
    await expect.poll(() => page.locator('.result-device').textContent(), POLL).toBe(`On ${B}`);
    await rawB.waitFor(async () => !(await urls(rawB)).includes(url), 'the tab on B to close');
    expect(await urls(rawA)).toContain(url);
  });
});
