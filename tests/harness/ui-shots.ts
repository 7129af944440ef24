// `npm run ui:shots` (tsx tests/harness/ui-shots.ts [out-dir]): brings up the real test desktop
// and the web harness, drives the real renderer into its states and writes PNGs — each state
// in light and dark — to ui-shots/ (gitignored), at the sizes main gives its windows (the
// launcher's is as tall as its content asks, as main sizes it). Each state in each scheme is
// also checked with axe-core; what it finds is printed and written to axe.json. For looking at
// what a person sees; nothing is asserted.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startAgentPages } from '../agent-pages/serve';
import { startFakeOpenAi } from '../support/fake-openai-server';
import { LAUNCHER_HEIGHTS, LAUNCHER_SIZE } from '../../src/main/launcher-size';
import { axeViolations, formatViolations, type AxeViolation } from './axe';
import { commandField } from './ui-browser';
import { startUiRig } from './ui-rig';
import type { View } from './web-harness';

const SIZES: Record<View, { width: number; height: number; fit?: boolean }> = {
  // src/main/launcher-size.ts: 640 wide, as tall as its content (window:fit).
  launcher: { width: LAUNCHER_SIZE.width, height: LAUNCHER_HEIGHTS.min, fit: true },
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
  const axe: Record<string, AxeViolation[]> = {};
  try {
    /** The launcher's viewport has taken the last height the page asked for, and kept it a moment (a shrink waits for its transition). */
    const fitted = async (page: Page) => {
      let last = -1;
      for (let stable = 0; stable < 3; ) {
        await page.waitForTimeout(120);
        const h = page.viewportSize()?.height ?? 0;
        const want = rig.harness.fitCalls.at(-1) ?? h;
        stable = h === want && h === last ? stable + 1 : 0;
        last = h;
      }
    };
    const shoot = async (page: Page, name: string) => {
      if (page.url().includes('view=launcher')) await fitted(page);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        // Let transitions on colour settle.
        await page.waitForTimeout(150);
        const file = path.join(out, `${name}-${scheme}.png`);
        await page.screenshot({ path: file });
        written.push(file);
        axe[`${name}-${scheme}`] = await axeViolations(page);
      }
    };
    const open = async (view: View) => {
      const ui = await rig.open(view, SIZES[view]);
      ui.page.on('close', () => problems.push(...ui.problems.map((p) => `${view}: ${p}`)));
      return ui;
    };
    const command = async (page: Page, text: string) => {
      const input = commandField(page);
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
      // The live list: what the words would act on, then one row's actions.
      const field = commandField(page);
      await field.pressSequentially('github');
      await page.locator('#live-list[data-settled="true"]').waitFor({ timeout: TIMEOUT });
      await shoot(page, 'live');
      await field.press('ArrowDown');
      await field.press('Tab');
      await page.getByRole('group', { name: /^Actions: / }).waitFor({ timeout: TIMEOUT });
      await shoot(page, 'live-actions');
      await field.press('Escape');
      await field.fill('');
      await field.pressSequentially('xterm');
      await page.locator('#live-list[data-settled="true"]').waitFor({ timeout: TIMEOUT });
      await shoot(page, 'live-apps');
      await field.fill('');
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

    // Agent mode, last (it needs an LLM; the commands above used the offline matcher): the
    // scripted OpenAI-compatible server and the agent test pages, the real CDP agent browser.
    {
      const [llm, pages] = await Promise.all([startFakeOpenAi(), startAgentPages()]);
      try {
        rig.env.DESKPILOT_LLM_MODEL = 'scripted-model';
        rig.env.DESKPILOT_LLM_BASE_URL = llm.baseURL;
        const configFile = path.join(rig.configDir, 'config.json');
        const config = existsSync(configFile) ? (JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>) : {};
        mkdirSync(rig.configDir, { recursive: true });
        writeFileSync(configFile, JSON.stringify({ ...config, agent: { tools: [{ name: 'Shop', url: pages.url('/search.html') }] } }, null, 2));
        const agentStatus = (page: Page, want: string) =>
          page.waitForFunction((w) => {
            const el = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }).document.querySelector(
              '[data-agent-status]',
            );
            return el?.getAttribute('data-agent-status') === w;
          }, want, { timeout: TIMEOUT });

        // The launcher: Agent on, the plan, a step running, the answer.
        llm.script(
          { json: { steps: ['Open the Shop tool', 'Search for "rain"', 'Read the results', 'Report the products found'], message: 'I will search the shop for rain gear and list what it has.' } },
          { content: '<tool_code>{"action": "open_tool", "name": "Shop"}</tool_code>' },
          { json: { command: { action: 'type', id: 1, value: 'rain', mode: null, submit: true } } },
          { content: '<tool_code>{"action": "read_page"}</tool_code>', delayMs: 3_000 },
          { content: '<tool_code>{"action": "done", "answer": "The shop has two rain items: the Blue rain jacket and Rain boots."}</tool_code>' },
        );
        const ui = await open('launcher');
        const page = ui.page;
        await page.getByRole('button', { name: 'Agent', exact: true }).click();
        await shoot(page, 'agent-mode');
        await command(page, 'find rain gear in the shop');
        await agentStatus(page, 'awaiting_approval');
        await shoot(page, 'agent-plan');
        await page.getByRole('button', { name: 'Edit steps' }).click();
        await shoot(page, 'agent-plan-edit');
        await page.getByRole('button', { name: 'Undo edits' }).click();
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.locator('.agent-step.is-running').nth(0).waitFor({ timeout: TIMEOUT });
        await page.waitForFunction(() => {
          const d = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document;
          return d.querySelectorAll('.agent-step.is-done').length === 2;
        }, undefined, { timeout: TIMEOUT });
        await shoot(page, 'agent-running');
        await agentStatus(page, 'done');
        await shoot(page, 'agent');

        // The safety question (a password field), in the launcher and in the popover; then the
        // finished run at the popover's size.
        const signIn = () =>
          llm.script(
            { json: { steps: ['Open the login page', 'Type the password and sign in', 'Say whether it worked'], message: 'I will sign in.' } },
            { content: `<tool_code>{"action": "open_tab", "url": "${pages.url('/login.html')}"}</tool_code>` },
            { json: { command: { action: 'type', id: 2, value: 'hunter2', mode: null, submit: true } } },
            { content: '<tool_code>{"action": "done", "answer": "Signed in: the page says Logged in."}</tool_code>' },
          );
        signIn();
        await command(page, 'sign in to the test site');
        await agentStatus(page, 'awaiting_approval');
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('alertdialog').waitFor({ timeout: TIMEOUT });
        await shoot(page, 'agent-confirm');
        await page.getByRole('button', { name: 'Allow', exact: true }).click();
        await agentStatus(page, 'done');
        await ui.close();

        signIn();
        const pop = await open('popover');
        await command(pop.page, 'agent: sign in to the test site');
        await agentStatus(pop.page, 'awaiting_approval');
        await shoot(pop.page, 'agent-plan-popover');
        await pop.page.getByRole('button', { name: 'Approve' }).click();
        await pop.page.getByRole('alertdialog').waitFor({ timeout: TIMEOUT });
        await shoot(pop.page, 'agent-confirm-popover');
        await pop.page.getByRole('button', { name: 'Allow', exact: true }).click();
        await agentStatus(pop.page, 'done');
        await shoot(pop.page, 'agent-popover');
        await pop.close();
      } finally {
        await Promise.all([llm.stop(), pages.stop()]);
      }
    }
  } finally {
    await rig.stop();
  }
  console.log(`${written.length} screenshots in ${out} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  writeFileSync(path.join(out, 'axe.json'), `${JSON.stringify(axe, null, 2)}\n`);
  const found = Object.entries(axe).filter(([, v]) => v.length > 0);
  console.log(found.length === 0 ? `axe-core: no violations in ${Object.keys(axe).length} states` : 'axe-core violations:');
  for (const [state, vs] of found) for (const line of formatViolations(vs)) console.log(`  ${state}: ${line}`);
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
