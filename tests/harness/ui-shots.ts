// `npm run ui:shots` (tsx tests/harness/ui-shots.ts [out-dir]): brings up the real test desktop
// and the web harness, drives the real renderer into its states and writes PNGs — each state
// in light and dark — to ui-shots/ (gitignored), at the sizes main gives its windows. For
// looking at what a person sees; nothing is asserted.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startUiRig } from './ui-rig';
import type { View } from './web-harness';

const SIZES: Record<View, { width: number; height: number }> = {
  launcher: { width: 640, height: 420 }, // src/main/launcher-window.ts LAUNCHER_SIZE
  popover: { width: 380, height: 520 }, // src/main/popover-window.ts POPOVER_SIZE
  settings: { width: 640, height: 720 }, // src/main/settings-window.ts
};

const TIMEOUT = 10_000;

async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? 'ui-shots');
  mkdirSync(out, { recursive: true });
  const started = Date.now();
  const rig = await startUiRig({ apps: ['xterm'] });
  const written: string[] = [];
  const problems: string[] = [];
  try {
    const shoot = async (page: Page, name: string) => {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        // Let transitions on colour settle.
        await page.waitForTimeout(150);
        const file = path.join(out, `${name}-${scheme}.png`);
        await page.screenshot({ path: file });
        written.push(file);
      }
    };
    const open = async (view: View) => {
      const ui = await rig.open(view, SIZES[view]);
      ui.page.on('close', () => problems.push(...ui.problems.map((p) => `${view}: ${p}`)));
      return ui;
    };
    const command = async (page: Page, text: string) => {
      const input = page.getByRole('textbox', { name: 'Command' });
      await input.fill(text);
      await input.press('Enter');
    };
    const settled = (page: Page, phase: string) =>
      page.waitForFunction((want) => {
        const el = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }).document.querySelector(
          '[data-phase]',
        );
        return el?.getAttribute('data-phase') === want;
      }, phase, { timeout: TIMEOUT });

    await rig.setTabs(['Reddit - front page', 'GitHub - deskpilot/issues', 'Hacker News', 'GitHub - deskpilot/pulls', 'Reddit - r/node', 'Rust Docs']);

    // Launcher: idle, then each outcome.
    {
      const ui = await open('launcher');
      const page = ui.page;
      await shoot(page, 'launcher');
      await command(page, 'switch to hacker news');
      await settled(page, 'done');
      await shoot(page, 'results');
      await command(page, 'switch to github');
      await settled(page, 'clarification');
      await shoot(page, 'clarification');
      await page.keyboard.press('Escape');
      await command(page, 'close all reddit tabs');
      await page.getByRole('alertdialog').waitFor({ timeout: TIMEOUT });
      await shoot(page, 'confirmation');
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').waitFor({ state: 'detached', timeout: TIMEOUT });
      await command(page, 'move notepad to the left monitor');
      await page.waitForFunction(
        () => {
          const el = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }).document.querySelector(
            '[data-phase]',
          );
          const phase = el?.getAttribute('data-phase');
          return phase === 'done' || phase === 'error' || phase === 'clarification';
        },
        undefined,
        { timeout: TIMEOUT },
      );
      await shoot(page, 'results-failed');
      await ui.close();
    }

    // Popover: a saved preset and a few recent commands, result cleared.
    {
      const ui = await open('popover');
      const page = ui.page;
      await shoot(page, 'popover-empty');
      await page.getByRole('button', { name: 'Save current layout…' }).click();
      await page.getByRole('textbox', { name: 'Preset name' }).fill('code space');
      await page.getByRole('button', { name: 'Save layout' }).click();
      await page.getByRole('button', { name: 'Apply preset code space' }).waitFor({ timeout: TIMEOUT });
      await command(page, 'switch to rust docs');
      await settled(page, 'done');
      await command(page, 'how many tabs do I have open?');
      await settled(page, 'done');
      await shoot(page, 'popover-result');
      await page.keyboard.press('Escape');
      await page.locator('[data-phase]').waitFor({ state: 'detached', timeout: TIMEOUT });
      await shoot(page, 'popover');
      await ui.close();
    }

    // Settings: as loaded, then with an inline error.
    {
      const ui = await open('settings');
      const page = ui.page;
      await page.getByRole('textbox', { name: 'LLM base URL' }).waitFor({ timeout: TIMEOUT });
      await shoot(page, 'settings');
      await page.getByRole('textbox', { name: 'LLM base URL' }).fill('not a url');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('alert').waitFor({ timeout: TIMEOUT });
      await shoot(page, 'settings-error');
      await ui.close();
    }
  } finally {
    await rig.stop();
  }
  console.log(`${written.length} screenshots in ${out} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  for (const f of written) console.log(`  ${path.relative(process.cwd(), f)}`);
  if (problems.length) {
    console.log('page problems:');
    for (const p of problems) console.log(`  ${p}`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`ui:shots failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
