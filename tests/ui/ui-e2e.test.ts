import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { POLL } from '../support/wait-for';
import { frameOf } from '../support/x-observe';
import { commandField, type PageGlobals } from '../harness/ui-browser';
import { startUiRig, type UiPage, type UiRig } from '../harness/ui-rig';

// DeskPilot's real renderer, built as shipped, in a real Chromium page, driving the real
// AppService (main's guard and validation in front of it) through the web harness — on the
// real test desktop: the fixture Chromium's tabs and xterm's window change for real, and every
// effect is read back independently (raw CDP for tabs, xwininfo/xprop for windows, the file
// system for settings). The offline matcher plans; no LLM is configured.


describeDesktop('the UI end to end (web harness, real renderer, real desktop)', () => {
  let rig: UiRig;
  let ui: UiPage | null = null;

  beforeAll(async () => {
    rig = await startUiRig({ apps: ['xterm'] });
  });

  afterAll(async () => {
    await rig?.stop();
  });

  afterEach(async () => {
    // Whatever the page ran into (an uncaught error, a CSP violation) fails the test that caused it.
    const problems = ui?.problems ?? [];
    await ui?.close();
    ui = null;
    expect(problems).toEqual([]);
  });

  const open = async (view: 'launcher' | 'popover' | 'settings') => {
    ui = await rig.open(view);
    return ui.page;
  };
  const input = (page: Page) => commandField(page);
  const results = (page: Page) => page.getByRole('list', { name: 'Results' });
  const text = (l: Locator) => l.textContent({ timeout: POLL.timeout }).then((t) => t ?? '');
  /** Which tab the fixture browser shows, checked two independent ways. */
  const expectActive = async (ids: Map<string, string>, title: string) => {
    await expect.poll(() => rig.activeTabTitle(), POLL).toBe(title);
    await expect.poll(() => rig.visibility(ids.get(title)!), POLL).toBe('visible');
    for (const [other, id] of ids) if (other !== title) expect(await rig.visibility(id)).toBe('hidden');
  };
  const focusedName = (page: Page) =>
    page.evaluate(() => {
      const el = (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null; textContent: string | null } | null } })
        .document.activeElement;
      return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : null;
    });

  it('"switch to <site title>" + Enter: that tab becomes the visible one; the UI shows ✓ and the result', async () => {
    const ids = await rig.setTabs(['Reddit - front page', 'Hacker News', 'Rust Docs']);
    await expectActive(ids, 'Rust Docs');
    const page = await open('launcher');
    await input(page).fill('switch to hacker news');
    await input(page).press('Enter');
    await expectActive(ids, 'Hacker News');
    await expect.poll(() => text(results(page)), POLL).toMatch(/^✓Done:.*Hacker News/);
    expect(await page.getByRole('region', { name: 'Result' }).getAttribute('data-phase')).toBe('done');
    // A command that went through leaves the field empty for the next one.
    expect(await input(page).inputValue()).toBe('');
  });

  it('a preset saved through "Save current layout…" puts xterm back when its button is clicked', async () => {
    const xterm = rig.windowOf('xterm');
    const home = frameOf(rig.env, xterm);
    const page = await open('popover');
    await page.getByRole('button', { name: 'Save current layout…' }).click();
    await page.getByRole('textbox', { name: 'Preset name' }).fill('ui test layout');
    await page.getByRole('button', { name: 'Save layout' }).click();
    const apply = page.getByRole('button', { name: 'Apply preset ui test layout' });
    await apply.waitFor({ timeout: POLL.timeout });
    const stored = JSON.parse(readFileSync(path.join(rig.configDir, 'presets.json'), 'utf8'));
    expect(stored.presets.map((p: { name: string }) => p.name)).toEqual(['ui test layout']);
    expect(await text(page.locator('.preset-apps'))).toContain('XTerm');

    // Move xterm away behind DeskPilot's back (xdotool), to the other monitor.
    execFileSync('xdotool', ['windowmove', '--sync', xterm, '2400', '300'], { env: rig.env });
    await expect.poll(() => frameOf(rig.env, xterm)[0], POLL).toBeGreaterThanOrEqual(1920);

    await apply.click();
    await expect.poll(() => frameOf(rig.env, xterm), POLL).toEqual(home);
    await expect.poll(() => text(results(page)), POLL).toMatch(/✓Done:/);
    expect(await text(page.getByRole('region', { name: 'Result' }))).toContain('ui test layout');
  });

  it('clarification: "switch to github" with two GitHub tabs asks; choosing a candidate activates exactly that tab', async () => {
    const ids = await rig.setTabs(['GitHub - a', 'Hacker News', 'GitHub - b']);
    await expectActive(ids, 'GitHub - b');
    const page = await open('launcher');
    await input(page).fill('switch to github');
    await input(page).press('Enter');
    const question = page.locator('#clarification-question');
    await question.waitFor({ timeout: POLL.timeout });
    expect(await text(question)).toMatch(/github/i);
    const candidates = page.getByRole('list', { name: await text(question) }).getByRole('button');
    const count = await candidates.count();
    if (count === 0) {
      // The matcher asked without offering choices: nothing may have changed.
      expect(await rig.activeTabTitle()).toBe('GitHub - b');
      return;
    }
    const labels = await candidates.allTextContents();
    expect(labels.some((l) => l.includes('GitHub - a'))).toBe(true);
    expect(labels.some((l) => l.includes('GitHub - b'))).toBe(true);
    expect(labels.some((l) => l.includes('Hacker News'))).toBe(false);
    // Nothing ran while asking.
    expect(await rig.activeTabTitle()).toBe('GitHub - b');
    const pick = labels.findIndex((l) => l.includes('GitHub - a'));
    await candidates.nth(pick).click();
    await expectActive(ids, 'GitHub - a');
    await expect.poll(() => text(results(page)), POLL).toMatch(/^✓/);
  });

  it('confirmation: "close all reddit tabs" lists exactly those tabs; Esc keeps them, Enter closes them', async () => {
    await rig.setTabs(['Reddit - front page', 'Hacker News', 'Reddit - r/node', 'Rust Docs']);
    const page = await open('launcher');
    const dialog = page.getByRole('alertdialog');
    const ask = async () => {
      await input(page).fill('close all reddit tabs');
      await input(page).press('Enter');
      await dialog.waitFor({ timeout: POLL.timeout });
      // One row per tab that will close: exactly the reddit tabs, each on its own line.
      const rows = await dialog.getByRole('listitem').allTextContents();
      expect(rows.map((r) => /“([^”]+)”/.exec(r)?.[1]).sort()).toEqual(['Reddit - front page', 'Reddit - r/node']);
    };

    const modals = rig.harness.modalCalls.length;
    await ask();
    // While the dialog is up, main is told not to hide the window on blur.
    await expect.poll(() => rig.harness.modalCalls.slice(modals), POLL).toEqual([true]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: POLL.timeout });
    await expect.poll(() => rig.harness.modalCalls.slice(modals), POLL).toEqual([true, false]);
    await expect.poll(() => page.getByRole('region', { name: 'Result' }).getAttribute('data-phase'), POLL).toBe('cancelled');
    expect(await rig.raw.titles()).toEqual(['Hacker News', 'Reddit - front page', 'Reddit - r/node', 'Rust Docs']);

    await ask();
    // The dialog ignores Enter for 400 ms after it opens (a held or doubled submit Enter). Once it has
    // opened (its accept button has the focus), let more than that pass on the page's own clock.
    await expect.poll(() => focusedName(page), POLL).toBe('Close them');
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: POLL.timeout });
    await expect.poll(() => rig.raw.titles(), POLL).toEqual(['Hacker News', 'Rust Docs']);
    await expect.poll(() => text(results(page)), POLL).toMatch(/✓/);
  });

  it('a held Enter (the one that submitted, auto-repeating) does not accept the confirmation', async () => {
    await rig.setTabs(['Reddit - front page', 'Hacker News', 'Reddit - r/node']);
    const page = await open('launcher');
    const dialog = page.getByRole('alertdialog');
    await input(page).fill('close all reddit tabs');
    await page.keyboard.down('Enter'); // submits
    await dialog.waitFor({ timeout: POLL.timeout });
    await page.keyboard.down('Enter'); // still held: playwright sends it as a repeat
    await page.keyboard.down('Enter');
    await page.keyboard.up('Enter');
    expect(await dialog.isVisible()).toBe(true);
    expect(await rig.raw.titles()).toEqual(['Hacker News', 'Reddit - front page', 'Reddit - r/node']);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: POLL.timeout });
  });

  it('the confirmation heading counts the tabs, not the commands: two tabs in one close_tab → "Close these tabs?"', async () => {
    await rig.setTabs(['Reddit - front page', 'Hacker News', 'Reddit - r/node']);
    const page = await open('launcher');
    await input(page).fill('close all reddit tabs');
    await input(page).press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: POLL.timeout });
    const heading = await dialog.getByRole('heading').textContent();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: POLL.timeout });
    expect(heading).toBe('Close these tabs?');
  });

  it('history: earlier commands are listed, newest first, and one runs again by click', async () => {
    const ids = await rig.setTabs(['Hacker News', 'Rust Docs', 'Weather']);
    const page = await open('popover');
    for (const cmd of ['switch to hacker news', 'switch to weather']) {
      await input(page).fill(cmd);
      await input(page).press('Enter');
      await expect.poll(() => input(page).inputValue(), POLL).toBe('');
    }
    await expectActive(ids, 'Weather');
    const recent = page.getByRole('region', { name: 'Recent' }).getByRole('button', { name: /^Run again: / });
    await expect.poll(() => recent.count(), POLL).toBe(2);
    expect(await recent.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([
      'Run again: switch to weather',
      'Run again: switch to hacker news',
    ]);
    // Each row: ✓ (and "Done:" for screen readers), the words, the first result.
    const newest = page.getByRole('region', { name: 'Recent' }).getByRole('listitem').first();
    // As a person reads it: typographic quotes, no "(127.0.0.1)" where a site name would be.
    expect(await newest.textContent()).toMatch(/^✓Done:switch to weather.*Switched to tab 3 “Weather”$/);
    await page.getByRole('button', { name: 'Run again: switch to hacker news' }).click();
    await expectActive(ids, 'Hacker News');
    await expect.poll(() => recent.count(), POLL).toBe(3);
  });

  it('settings: a bad LLM base URL gets an inline error and config.json stays as it was; a good one is saved', async () => {
    const file = path.join(rig.configDir, 'config.json');
    writeFileSync(file, `${JSON.stringify({ chrome: { url: rig.env.DESKPILOT_CHROME_URL } }, null, 2)}\n`);
    const before = readFileSync(file, 'utf8');
    const page = await open('settings');
    const field = page.getByRole('textbox', { name: 'LLM base URL' });
    await field.fill('not a url');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => field.getAttribute('aria-invalid'), POLL).toBe('true');
    const errorId = (await field.getAttribute('aria-describedby'))!.split(' ')[0]!;
    expect(await text(page.locator(`#${errorId}`))).toMatch(/must be a URL/i);
    expect(await text(page.getByRole('alert'))).toMatch(/Not saved/);
    expect(readFileSync(file, 'utf8')).toBe(before);

    await field.fill('http://localhost:11434/v1');
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor({ timeout: POLL.timeout });
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toEqual({ chrome: { url: rig.env.DESKPILOT_CHROME_URL }, llm: { base_url: 'http://localhost:11434/v1' } });
  });

  it('keyboard only: focus starts in the field; type, Enter, Tab to a choice, Enter; Esc clears, Esc again hides', async () => {
    const ids = await rig.setTabs(['GitHub - a', 'Rust Docs', 'GitHub - b']);
    const page = await open('launcher');
    expect(await focusedName(page)).toBe('Command');
    await page.keyboard.type('switch to rust docs');
    await page.keyboard.press('Enter');
    await expectActive(ids, 'Rust Docs');
    await expect.poll(() => text(results(page)), POLL).toMatch(/^✓/);
    expect(await focusedName(page)).toBe('Command');

    // The ambiguous case by keyboard: Tab moves from the field to the choices.
    await page.keyboard.type('switch to github');
    await page.keyboard.press('Enter');
    await page.locator('#clarification-question').waitFor({ timeout: POLL.timeout });
    const candidates = page.locator('.candidates button');
    if ((await candidates.count()) > 0) {
      expect(await focusedName(page)).toBe('Command');
      let target = '';
      for (let i = 0; i < 6 && !target.includes('GitHub - a'); i++) {
        await page.keyboard.press('Tab');
        target = (await focusedName(page)) ?? '';
      }
      expect(target).toContain('GitHub - a');
      await page.keyboard.press('Enter');
      await expectActive(ids, 'GitHub - a');
      // The run is over when its result is shown (the tab switches before): Esc must clear that.
      await expect.poll(() => text(results(page)), POLL).toMatch(/^✓.*GitHub - a/);
    }

    const hides = rig.harness.hideCalls.length;
    await input(page).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('region', { name: 'Result' }).count(), POLL).toBe(0);
    expect(rig.harness.hideCalls.length).toBe(hides);
    await page.keyboard.press('Escape');
    await expect.poll(() => rig.harness.hideCalls.length, POLL).toBe(hides + 1);
  });

  it('bridge security: a request without the token is refused (403) and runs nothing', async () => {
    await rig.setTabs(['Reddit - front page', 'Hacker News', 'Rust Docs']);
    const page = await open('launcher');
    // Submissions only: the page itself may still be fetching (its status, the device picker's list).
    const submits = () => rig.harness.calls.filter((c) => c.channel === 'command:submit').length;
    const calls = submits();
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${rig.harness.origin}/__api/command:submit`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const closeAll = { text: 'switch to hacker news' };
    const none = await post({}, closeAll);
    expect(none.status).toBe(403);
    expect(await none.json()).toEqual({ ok: false, error: 'refused: unknown sender', code: 'refused' });
    const wrong = await post({ 'x-deskpilot-token': rig.harness.token.replace(/./, (c) => (c === 'a' ? 'b' : 'a')) }, closeAll);
    expect(wrong.status).toBe(403);
    // The page's own origin without the token (what another script in it could try) is refused too.
    const fromPage = await page.evaluate(async (body) => {
      const r = await fetch('/__api/command:submit', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return r.status;
    }, JSON.stringify(closeAll));
    expect(fromPage).toBe(403);
    // That refusal is the point here, not a page problem.
    ui!.problems.splice(0, ui!.problems.length, ...ui!.problems.filter((p) => !p.includes('status of 403')));
    expect(submits()).toBe(calls);
    expect(await rig.raw.titles()).toEqual(['Hacker News', 'Reddit - front page', 'Rust Docs']);
    // The UI, holding the token, still works.
    const status = await page.evaluate(() => (globalThis as unknown as PageGlobals).api.appStatus({}));
    expect(status.ok && status.value.chrome.ok).toBe(true);
  });
});
