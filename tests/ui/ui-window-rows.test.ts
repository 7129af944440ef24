import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { launch, stopProc, type Proc } from '../support/desktop';
import { POLL, waitFor } from '../support/wait-for';
import { frameOf, wmWindows } from '../support/x-observe';
import { startUiRig, type UiPage, type UiRig } from '../harness/ui-rig';

// Issue 27 in the launcher: with two xterms open, the live list shows a row per window, named
// by its title, and "move to the other monitor" on the second one's row moves that window and
// not the first (xwininfo). The real renderer in a real Chromium page, the real AppService
// behind the web harness, the real test desktop.

const SECOND = 'dp-second-xterm';

describeDesktop('the launcher lists one row per window when an app has several (web harness, real engine, real desktop)', () => {
  let rig: UiRig;
  let ui: UiPage | null = null;
  let second: Proc | null = null;
  let secondId = '';

  beforeAll(async () => {
    rig = await startUiRig({ apps: ['xterm'] });
    second = await launch(SECOND, 'xterm', ['-T', SECOND, '-geometry', '60x15+200+200'], rig.env);
    const w = await waitFor('the second xterm', () => wmWindows(rig.env).find((x) => x.title === SECOND));
    secondId = `0x${w.id.toString(16)}`;
  });

  afterAll(async () => {
    if (second) await stopProc(second);
    await rig?.stop();
  });

  afterEach(async () => {
    const problems = ui?.problems ?? [];
    await ui?.close();
    ui = null;
    expect(problems).toEqual([]);
  });

  const field = (page: Page) => page.getByRole('combobox', { name: 'Command' });
  const matches = (page: Page) => page.getByRole('listbox', { name: 'Matches' });
  const rowTexts = (page: Page) =>
    matches(page)
      .locator(':scope > li > [role="option"]')
      .evaluateAll((els) =>
        els.map((e) => {
          const copy = e.cloneNode(true) as typeof e;
          for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
          return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
        }),
      );

  it('"xterm" lists both xterm windows by title; moving the second one\'s row moves that window only', async () => {
    const first = rig.windowOf('xterm');
    ui = await rig.open('launcher', { width: 640, height: 720 });
    const page = ui.page;
    await field(page).pressSequentially('xterm');
    await expect.poll(() => matches(page).getAttribute('data-settled'), POLL).toBe('true');
    const listed = await rowTexts(page);
    const windowRows = listed.filter((t) => /, XTerm, Window( · .*)?$/.test(t));
    expect(windowRows).toHaveLength(2);
    const row = listed.findIndex((t) => t.startsWith(`${SECOND}, XTerm, Window`));
    expect(row).toBeGreaterThan(-1);

    const firstBefore = frameOf(rig.env, first);
    const target = frameOf(rig.env, secondId)[0] >= 1920 ? 'left' : 'right';
    for (let i = 0; i < row; i++) await field(page).press('ArrowDown');
    await field(page).press('Tab');
    const actions = page.getByRole('group', { name: `Actions: ${SECOND}` }).getByRole('option');
    const labels = await actions.allTextContents();
    expect(labels).toEqual(['Bring to front', 'Move to the left monitor', 'Move to the right monitor']);
    for (let i = 0; i < labels.indexOf(`Move to the ${target} monitor`); i++) await field(page).press('ArrowDown');
    await field(page).press('Enter');
    await expect.poll(() => frameOf(rig.env, secondId)[0] >= 1920, POLL).toBe(target === 'right');
    expect(frameOf(rig.env, first)).toEqual(firstBefore);
  });
});
