import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { startAgentPages, type AgentPages } from '../agent-pages/serve';
import { commandField } from '../harness/ui-browser';
import { startUiRig, type UiPage, type UiRig } from '../harness/ui-rig';
import { describeDesktop } from '../support/describe-desktop';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { gate, POLL } from '../support/wait-for';

// Agent mode in the app, end to end: the real renderer in a real Chromium page, through the web
// harness to the real AppService and its agent service, which runs the real agent loop with the
// real CDP agent browser on the fixture Chromium and the real LLM models (OpenAI SDK, real HTTP)
// against a scripted OpenAI-compatible server. What the agent did to the page is read back
// independently with raw CDP.


const userMessage = (llm: FakeOpenAi, i: number) => llm.requests[i]!.messages!.find((m) => m.role === 'user')!.content;
const instructionOf = (llm: FakeOpenAi, i: number) => userMessage(llm, i).match(/Current instruction: (.*)/)?.[1];

describeDesktop('agent mode in the UI (web harness, real CDP agent browser, scripted OpenAI-compatible server)', () => {
  let rig: UiRig;
  let pages: AgentPages;
  let llm: FakeOpenAi;
  let ui: UiPage | null = null;
  let userTab: string;
  /** pages.requests from before this test are not this test's. */
  let requestsBefore: number;

  beforeAll(async () => {
    pages = await startAgentPages();
    // The LLM comes from the env, as in the app: model names here, the server's URL per test.
    rig = await startUiRig({
      apps: [],
      env: { DESKPILOT_LLM_MODEL: 'scripted-model', DESKPILOT_AGENT_EXECUTOR_MODEL: 'scripted-executor', DESKPILOT_LLM_TIMEOUT_MS: '60000' },
    });
    mkdirSync(rig.configDir, { recursive: true });
    writeFileSync(path.join(rig.configDir, 'config.json'), JSON.stringify({ agent: { tools: [{ name: 'Shop', url: pages.url('/search.html') }] } }));
  });

  afterAll(async () => {
    await rig?.stop();
    await pages?.stop();
  });

  // A fresh scripted server per test, so answers a test left unused cannot leak into the next;
  // and one ordinary tab of the user's, which the agent must leave alone.
  beforeEach(async () => {
    llm = await startFakeOpenAi();
    rig.env.DESKPILOT_LLM_BASE_URL = llm.baseURL;
    const before = await rig.raw.pages();
    userTab = await rig.raw.open(pages.url('/nav-a.html'));
    for (const p of before) await rig.raw.close(p.targetId);
    requestsBefore = pages.requests.length;
  });

  afterEach(async () => {
    const problems = ui?.problems ?? [];
    await ui?.close();
    ui = null;
    // A run a failed test left going is stopped, so the next test can start its own.
    const last = rig.harness.agentUpdates.at(-1);
    if (last && !['done', 'stopped', 'cancelled', 'failed', 'budget', 'refused'].includes(last.status)) {
      await rig.harness.service.handlers()['agent:stop']({ runId: last.runId });
      await expect.poll(() => rig.harness.agentUpdates.at(-1)?.status, POLL).toMatch(/stopped|failed|cancelled/);
    }
    await llm?.stop();
    expect(problems).toEqual([]);
  });
  const pageRequests = () => pages.requests.slice(requestsBefore);

  const open = async (view: 'launcher' | 'popover' = 'launcher') => {
    ui = await rig.open(view);
    return ui.page;
  };
  const input = (page: Page) => commandField(page);
  const panel = (page: Page) => page.getByRole('region', { name: 'Agent task' });
  const status = (page: Page) => panel(page).getAttribute('data-agent-status', { timeout: POLL.timeout });
  const steps = (page: Page) => panel(page).getByRole('list', { name: 'Steps' }).getByRole('listitem');
  const stepStates = (page: Page) => steps(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
  const planSteps = (page: Page) => panel(page).getByRole('list', { name: 'Plan' }).locator('.agent-plan-text').allTextContents();
  const text = (l: Locator) => l.textContent({ timeout: POLL.timeout }).then((t) => t ?? '');
  const focusedName = (page: Page) =>
    page.evaluate(() => {
      const el = (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null; textContent: string | null } | null } })
        .document.activeElement;
      return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : null;
    });
  const tabAt = async (url: string) => (await rig.raw.pages()).find((p) => p.url === url);

  it('a task started from the UI: plan shown → Approve (Enter) → the steps run on a real page, each ✓, the answer shown; the page checked via raw CDP', async () => {
    llm.script(
      { json: { steps: ['Open the Shop tool', 'Search for "rain"', 'Read the results', 'Report the products found'], message: 'I will search the shop for rain gear.' } },
      { content: '<tool_code>{"action": "open_tool", "name": "shop"}</tool_code>' },
      { json: { command: { action: 'type', id: 1, value: 'rain', mode: null, submit: true } } },
      { content: '<tool_code>{"action": "read_page"}</tool_code>' },
      { content: '<tool_code>{"action": "done", "answer": "Rain gear in the shop: Blue rain jacket, Rain boots."}</tool_code>' },
    );
    const page = await open();

    // The Agent toggle: pressed, and the field says what Enter now does.
    const toggle = page.getByRole('button', { name: 'Agent', exact: true });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await input(page).getAttribute('placeholder')).toBe('Describe a web task; you approve the plan before it runs');
    await input(page).fill('find rain gear in the shop');
    await input(page).press('Enter');

    // The plan, waiting: numbered steps, the message, Approve focused; nothing has run.
    await expect.poll(() => status(page), POLL).toBe('awaiting_approval');
    // The planner's words, with typographic quotes.
    expect(await planSteps(page)).toEqual(['Open the Shop tool', 'Search for “rain”', 'Read the results', 'Report the products found']);
    expect(await text(panel(page))).toContain('I will search the shop for rain gear.');
    expect(await text(panel(page))).toContain('find rain gear in the shop');
    await expect.poll(() => focusedName(page), POLL).toBe('Approve');
    await expect.poll(() => input(page).inputValue(), POLL).toBe('');
    expect(llm.requests).toHaveLength(1);
    expect(await tabAt(pages.url('/search.html'))).toBeUndefined();

    await page.keyboard.press('Enter');
    await expect.poll(() => status(page), POLL).toBe('done');
    expect(await stepStates(page)).toEqual(['done', 'done', 'done', 'done']);
    const lines = await steps(page).allTextContents();
    expect(lines[0]).toMatch(/^✓Done:1\. Open the Shop tool.*Opened the tool “shop”/);
    // Each action said once, as a person reads it: no element numbers, no page text read aloud.
    expect(lines[1]).toContain('Typed “rain”, then pressed Enter');
    expect(lines[1]).not.toMatch(/element|"/);
    expect(lines[2]).toMatch(/Read the page$/);
    expect(lines[3]).toContain('Finished with the answer');
    const answer = page.getByRole('region', { name: 'Answer' });
    expect(await text(answer)).toContain('Rain gear in the shop: Blue rain jacket, Rain boots.');
    // Nothing left to press but Clear; focus is back in the field for the next task.
    expect(await panel(page).getByRole('button', { name: 'Stop' }).count()).toBe(0);
    await expect.poll(() => focusedName(page), POLL).toBe('Command');

    // The page, checked independently: the query typed, the search submitted, the results shown.
    const shop = await tabAt(pages.url('/search.html'));
    expect(shop).toBeDefined();
    expect(await rig.raw.evaluate(shop!.targetId, "document.getElementById('q').value")).toBe('rain');
    expect(await rig.raw.evaluate(shop!.targetId, "[...document.querySelectorAll('#results .result')].map((a) => a.textContent)")).toEqual([
      'Blue rain jacket',
      'Rain boots',
    ]);
    expect(await rig.raw.evaluate(shop!.targetId, "document.getElementById('status').textContent")).toBe('2 results for rain');
    expect(pageRequests().some((q) => q.url === '/api/search?q=rain')).toBe(true);
    expect((await rig.raw.pages()).some((p) => p.targetId === userTab)).toBe(true);

    // The models: the planner, then the executor once per step; what the service pushed, in order.
    expect(llm.requests.map((q) => q.model)).toEqual(['scripted-model', ...Array(4).fill('scripted-executor')]);
    const updates = rig.harness.agentUpdates.filter((u) => u.goal === 'find rain gear in the shop');
    const statuses = updates.map((u) => u.status).filter((s, i, a) => a[i - 1] !== s);
    expect(statuses).toEqual(['planning', 'awaiting_approval', 'running', 'done']);
    expect(updates.map((u) => u.version)).toEqual([...updates.map((u) => u.version)].sort((a, b) => a - b));
    expect(updates.map((u) => u.steps[1]?.state).filter((s, i, a) => s && a[i - 1] !== s)).toEqual(['pending', 'running', 'done']);
  });

  it('a correction sent mid-run becomes the next instruction; Stop ends the run there, and nothing more is done', async () => {
    // The first step's command is held until the correction has been sent, so it arrives mid-run.
    const corrected = gate();
    llm.script(
      { json: { steps: ['Open the shop', 'Search for rain', 'Report what was found'], message: 'I will search.' } },
      { content: `<tool_code>{"action": "open_tab", "url": "${pages.url('/search.html')}"}</tool_code>`, after: corrected.opened },
      // The correction's turn: the request hangs until Stop aborts it.
      { hang: true },
    );
    const page = await open('popover');
    await input(page).fill('agent: search the shop');
    await input(page).press('Enter');
    await expect.poll(() => status(page), POLL).toBe('awaiting_approval');
    await panel(page).getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => stepStates(page), POLL).toEqual(['running', 'pending', 'pending']);
    await expect.poll(() => focusedName(page), POLL).toBe('Correction');

    const correction = page.getByRole('textbox', { name: 'Correction' });
    await correction.fill('search for boots instead');
    await correction.press('Enter');
    await expect.poll(() => text(steps(page).nth(3)), POLL).toContain('Your correction: search for boots instead');
    expect(await correction.inputValue()).toBe('');
    corrected.open();

    // The correction went to the executor as its next instruction, before the plan's step 2.
    await llm.waitForRequests(3);
    expect(instructionOf(llm, 2)).toContain('User correction: search for boots instead');
    await expect.poll(() => stepStates(page), POLL).toEqual(['done', 'pending', 'pending', 'running']);

    await panel(page).getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => status(page), POLL).toBe('stopped');
    expect(await stepStates(page)).toEqual(['done', 'pending', 'pending', 'pending']);
    expect(await text(panel(page))).toContain('Stopped after 1 command. Tabs the agent opened stay open.');
    expect(await page.getByRole('textbox', { name: 'Correction' }).count()).toBe(0);

    // The tab it opened stays, untouched since; no further model request.
    const shop = await tabAt(pages.url('/search.html'));
    expect(shop).toBeDefined();
    expect(await rig.raw.evaluate(shop!.targetId, "document.getElementById('q').value")).toBe('');
    expect(llm.requests).toHaveLength(3);
    expect(pageRequests().some((q) => q.url.startsWith('/api/search'))).toBe(false);
  });

  it('Cancel at the plan runs nothing: no executor request, no tab opened', async () => {
    llm.script({ json: { steps: ['Open the shop', 'Search for rain'], message: 'I will search.' } });
    const page = await open();
    // The "agent:" prefix works with the toggle off.
    await input(page).fill('agent: search the shop for rain');
    await input(page).press('Enter');
    await expect.poll(() => status(page), POLL).toBe('awaiting_approval');
    expect(await page.getByRole('button', { name: 'Agent', exact: true }).getAttribute('aria-pressed')).toBe('false');
    await panel(page).getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => status(page), POLL).toBe('cancelled');
    expect(await text(panel(page))).toContain('Cancelled — nothing was run.');
    expect(await panel(page).getByRole('list', { name: 'Steps' }).count()).toBe(0);
    expect(llm.requests).toHaveLength(1);
    expect((await rig.raw.pages()).map((p) => p.targetId)).toEqual([userTab]);

    // Esc clears the ended task away; the field is ready for the next one.
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count(), POLL).toBe(0);
  });

  it('an edited plan runs as edited; the password prompt is asked in a dialog, and Allow lets the agent sign in', async () => {
    llm.script(
      { json: { steps: ['Open the login page', 'Type the email', 'Sign in', 'Say whether it worked'], message: 'I will sign in.' } },
      { content: `<tool_code>{"action": "open_tab", "url": "${pages.url('/login.html')}"}</tool_code>` },
      { json: { command: { action: 'type', id: 2, value: 'hunter2', mode: null, submit: true } } },
      { content: '<tool_code>{"action": "done", "answer": "Signed in."}</tool_code>' },
    );
    const page = await open();
    await input(page).fill('agent: sign in to the test site');
    await input(page).press('Enter');
    await expect.poll(() => status(page), POLL).toBe('awaiting_approval');

    // Edit: remove step 2, reword step 3 (now step 2).
    await panel(page).getByRole('button', { name: 'Edit steps' }).click();
    await expect.poll(() => focusedName(page), POLL).toBe('Step 1');
    await panel(page).getByRole('button', { name: 'Remove step 2' }).click();
    await panel(page).getByRole('textbox', { name: 'Step 2' }).fill('Type the password and sign in');
    await panel(page).getByRole('button', { name: 'Approve edited plan' }).click();

    // The safety question, in a modal dialog; "Don't allow" has focus.
    const dialog = page.getByRole('alertdialog', { name: 'Allow the agent to do this?' });
    await dialog.waitFor({ timeout: POLL.timeout });
    expect(await text(dialog)).toMatch(/Type into the password field on this computer\?/);
    await expect.poll(() => focusedName(page), POLL).toBe('Don’t allow');
    expect(await stepStates(page)).toEqual(['done', 'running', 'pending']);
    expect(await text(page.locator('body'))).not.toContain('hunter2');
    const login = await tabAt(pages.url('/login.html'));
    expect(await rig.raw.evaluate(login!.targetId, "document.getElementById('pw').value")).toBe('');

    await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect.poll(() => status(page), POLL).toBe('done');
    expect(await dialog.count()).toBe(0);
    expect(await stepStates(page)).toEqual(['done', 'done', 'done']);
    expect(await text(page.getByRole('region', { name: 'Answer' }))).toContain('Signed in.');
    // The password the agent typed is never on screen.
    expect(await text(steps(page).nth(1))).toContain('Typed 7 hidden characters into the password field, then pressed Enter');
    expect(await text(page.locator('body'))).not.toContain('hunter2');

    // The page, independently: signed in with the password the person allowed.
    expect(await rig.raw.evaluate(login!.targetId, "document.getElementById('msg').textContent")).toBe('Logged in');
    expect(pageRequests().find((q) => q.url === '/api/login')?.body).toContain('"password":"hunter2"');
    // The executor worked through the edited steps.
    expect([1, 2, 3].map((i) => instructionOf(llm, i))).toEqual(['"Open the login page"', '"Type the password and sign in"', '"Say whether it worked"']);
  });

  it('without an LLM the task says so, plainly, and nothing runs', async () => {
    const model = rig.env.DESKPILOT_LLM_MODEL;
    rig.env.DESKPILOT_LLM_MODEL = '';
    try {
      const page = await open();
      await input(page).fill('agent: find rain gear');
      await input(page).press('Enter');
      await expect.poll(() => status(page), POLL).toBe('failed');
      expect(await text(panel(page))).toContain('Agent mode needs an LLM: choose a model in Settings (LLM)');
      expect(llm.requests).toHaveLength(0);
      expect((await rig.raw.pages()).map((p) => p.targetId)).toEqual([userTab]);
    } finally {
      rig.env.DESKPILOT_LLM_MODEL = model;
    }
  });
});
