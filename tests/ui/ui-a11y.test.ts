import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../harness/axe';
import { commandField } from '../harness/ui-browser';
import { startUiRig, type UiPage, type UiRig } from '../harness/ui-rig';
import { describeDesktop } from '../support/describe-desktop';
import { POLL } from '../support/wait-for';

// Every main state of the three windows, in light and in dark, passes axe-core's WCAG 2.1 A and
// AA rules (contrast, names, roles, ARIA) — the real renderer on the real engine, as in the
// other UI tests. (npm run ui:shots checks the agent's states too and writes what it finds.)

describeDesktop('accessibility of every UI state, light and dark (axe-core, real renderer, real desktop)', () => {
  let rig: UiRig;
  let ui: UiPage | null = null;

  beforeAll(async () => {
    rig = await startUiRig({ apps: ['xterm'] });
    await rig.setTabs(['Reddit - front page', 'GitHub - deskpilot/issues', 'Hacker News', 'GitHub - deskpilot/pulls', 'Reddit - r/node']);
  });

  afterAll(async () => {
    await rig?.stop();
  });

  afterEach(async () => {
    const problems = ui?.problems ?? [];
    await ui?.close();
    ui = null;
    expect(problems).toEqual([]);
  });

  /** axe in both colour schemes; the failure names each rule, its elements and the scheme. */
  const check = async (page: Page, state: string) => {
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      found.push(...formatViolations(await axeViolations(page)).map((v) => `${state} (${scheme}): ${v}`));
    }
    expect(found).toEqual([]);
  };
  const settled = (page: Page, phase: string) => expect.poll(() => page.locator('[data-phase]').getAttribute('data-phase'), POLL).toBe(phase);

  it('the launcher: idle, the live list, a row’s actions, a result, a question, a confirmation', async () => {
    ui = await rig.open('launcher', { width: 640, height: 64, fit: true });
    const page = ui.page;
    const field = commandField(page);
    await check(page, 'idle');
    await field.pressSequentially('github');
    await page.locator('#live-list[data-settled="true"]').waitFor({ timeout: POLL.timeout });
    await check(page, 'live list');
    await field.press('ArrowDown');
    await field.press('Tab');
    await page.getByRole('group', { name: /^Actions: / }).waitFor({ timeout: POLL.timeout });
    await check(page, 'actions');
    await field.press('Escape');
    await field.fill('switch to hacker news');
    await field.press('Enter');
    await settled(page, 'done');
    await check(page, 'result');
    await field.fill('switch to github');
    await field.press('Enter');
    await settled(page, 'clarification');
    await check(page, 'question');
    await field.fill('close all reddit tabs');
    await field.press('Enter');
    await page.getByRole('alertdialog').waitFor({ timeout: POLL.timeout });
    await check(page, 'confirmation');
    await page.keyboard.press('Escape');
  });

  it('the popover: empty with suggestions, then with a preset and recent commands', async () => {
    ui = await rig.open('popover', { width: 380, height: 520 });
    const page = ui.page;
    await page.getByRole('region', { name: 'Recent' }).getByRole('button').first().waitFor({ timeout: POLL.timeout });
    await check(page, 'empty');
    await page.getByRole('button', { name: 'Save current layout…' }).click();
    await page.getByRole('textbox', { name: 'Preset name' }).fill('a11y layout');
    await page.getByRole('button', { name: 'Save layout' }).click();
    await page.getByRole('button', { name: 'Apply preset a11y layout' }).waitFor({ timeout: POLL.timeout });
    await commandField(page).fill('how many tabs do I have open?');
    await commandField(page).press('Enter');
    await settled(page, 'done');
    await check(page, 'with history');
  });

  it('settings: as loaded, and with a field marked wrong', async () => {
    ui = await rig.open('settings', { width: 640, height: 720 });
    const page = ui.page;
    const url = page.getByRole('textbox', { name: 'LLM base URL' });
    await url.waitFor({ timeout: POLL.timeout });
    await check(page, 'loaded');
    await url.fill('not a url');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').waitFor({ timeout: POLL.timeout });
    await check(page, 'error');
  });
});
