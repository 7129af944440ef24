import { describe, expect, it } from 'vitest';
import { runAgent, type RunAgentInput } from '../../src/engine/agent';
import { eventLog, scriptedBrowser, scriptedModels, tool, type FakePage } from './scripted';

// The loop starting on the person's own tab: the planner sees that tab (snapshot, and a
// screenshot when on), may answer without steps, and the executor acts on that tab. The
// in-memory browser and scripted models of scripted.ts; real Chromium: agent-current-tab.test.ts.

const SHOP = 'https://shop.example.com/cart';
const KEY = 'sk-live-7Hq2Lr9Zp4Xw';

const cart: FakePage = {
  title: 'Your cart',
  body: (tab) => `<p>2 items: Cat toy, Cat bed. Total $31.</p>\n<input id="1" placeholder="Coupon" value="${tab.state.coupon ?? ''}">\n<button id="2">Apply</button>`,
  elements: { 1: { tag: 'input', type: 'text' }, 2: { tag: 'button', type: 'submit' } },
  perform: (cmd, tab) => {
    if (cmd.action === 'type') tab.state.coupon = cmd.value;
    if (cmd.action === 'read_page') return { output: 'Your cart\n2 items: Cat toy, Cat bed. Total $31.', changed: false };
  },
};
const keyPage: FakePage = {
  title: 'API keys',
  body: '<button id="1">Rotate</button>',
  elements: { 1: { tag: 'button', type: 'button' } },
  perform: (cmd) => (cmd.action === 'read_page' ? { output: `Your key: ${KEY}`, changed: false } : undefined),
};
const pages = { [SHOP]: cart, 'https://dev.example.com/keys': keyPage };

const input = (over: Partial<RunAgentInput> & Pick<RunAgentInput, 'browser' | 'models'>): RunAgentInput => ({
  goal: 'what is in my cart?',
  approve: async () => ({ approved: true }),
  confirm: async () => true,
  startTab: 'current',
  ...over,
});

describe('agent on the current tab (scripted browser and models)', () => {
  it('a question about the page: the planner sees its snapshot and answers directly; no executor turn, nothing done to the page', async () => {
    const browser = scriptedBrowser(pages);
    browser.current = browser.userTab(SHOP);
    const models = scriptedModels([{ needs_steps: false, steps: [], message: 'Two items: a cat toy and a cat bed, $31 in all.' }], []);
    const log = eventLog();
    let asked = false;
    const r = await runAgent(input({ browser, models, onEvent: log.onEvent, approve: async () => ((asked = true), { approved: true }) }));

    expect(r).toMatchObject({ status: 'done', answer: 'Two items: a cat toy and a cat bed, $31 in all.', commands: 0, steps: [] });
    expect(asked).toBe(false); // nothing to approve: nothing runs
    expect(models.nextRequests).toEqual([]);
    // Only read: the page's text for the planner.
    expect(browser.performed.map((p) => p.cmd)).toEqual([{ action: 'read_page', max_chars: 4000 }]);
    expect(browser.opened).toEqual([]);
    expect(log.types()).toEqual(['plan', 'done']);

    const req = models.planRequests[0]!;
    expect(req.page!.text).toMatch(/^<page_data tab="1" current="yes" url="https:\/\/shop\.example\.com\/cart" title="Your cart">\n<browsing_context>/);
    expect(req.page!.text).toContain('<input id="1" placeholder="Coupon"');
    expect(req.page!.text).toContain('</page_data>\n<page_data tab="1" source="read_page">\nYour cart\n2 items: Cat toy, Cat bed. Total $31.\n</page_data>');
    expect(req.context).toContain("The run starts on a tab the user has open (target tab 1)");
    expect(req.context).not.toContain('No tab is open yet');
    expect(req.page!.image).toBeUndefined(); // screenshots are off by default
    expect(browser.screenshotCalls).toEqual([]);
  });

  it('steps run on that tab: the executor starts with it as target tab 1 and acts on it without opening another', async () => {
    const browser = scriptedBrowser(pages);
    const tab = browser.userTab(SHOP);
    browser.current = tab;
    const models = scriptedModels(
      [{ needs_steps: true, steps: ['Type SAVE10 into the coupon box', 'Report the total'], message: 'I will apply the coupon.' }],
      [tool({ action: 'type', id: 1, value: 'SAVE10' }), tool({ action: 'done', answer: 'Applied.' })],
    );
    const r = await runAgent(input({ browser, models, goal: 'apply coupon SAVE10' }));
    expect(r.status).toBe('done');
    expect(browser.opened).toEqual([]);
    expect(browser.performed.slice(1)).toEqual([{ targetId: tab, cmd: { action: 'type', id: 1, value: 'SAVE10' } }]);
    expect(browser.tabs.get(tab)!.state.coupon).toBe('SAVE10');
    expect(models.nextRequests[0]!.snapshots[0]!.text).toMatch(/^<page_data tab="1" current="yes" url="https:\/\/shop\.example\.com\/cart"/);
    expect(models.nextRequests[0]!.notices[0]).toBe(`System: Target tabs: 1 (current) ${SHOP}.`);
  });

  it('closing the person\'s own tab asks first; declined, it stays open', async () => {
    const browser = scriptedBrowser(pages);
    browser.current = browser.userTab(SHOP);
    const questions: string[] = [];
    const models = scriptedModels([{ steps: ['Close the tab'], message: 'Closing.' }], [tool({ action: 'close_tab', tab: 1 }), tool({ action: 'done', answer: 'Left it open.' })]);
    const r = await runAgent(input({ browser, models, confirm: async (q) => (questions.push(q), false) }));
    expect(questions).toEqual([`Close your tab ${SHOP} (tab 1; the agent did not open it)?`]);
    expect(browser.closed).toEqual([]);
    expect(r.steps[0]).toMatchObject({ ok: false, code: 'declined' });
  });

  it('screenshots on: the planner gets one with the snapshot; with secrets set it gets none (a picture cannot be redacted), and the page text is redacted', async () => {
    const browser = scriptedBrowser(pages);
    const tab = browser.userTab(SHOP);
    browser.current = tab;
    const models = scriptedModels([{ needs_steps: false, steps: [], message: 'A cart.' }], []);
    await runAgent(input({ browser, models, options: { screenshots: true } }));
    expect(browser.screenshotCalls).toEqual([tab]);
    expect(models.planRequests[0]!.page!.image).toMatchObject({ mimeType: 'image/jpeg', width: 1024 });

    const b2 = scriptedBrowser(pages);
    b2.current = b2.userTab('https://dev.example.com/keys');
    const m2 = scriptedModels([{ needs_steps: false, steps: [], message: 'An API key page.' }], []);
    const log = eventLog();
    await runAgent(input({ browser: b2, models: m2, options: { screenshots: true, secrets: { API_KEY: KEY } }, onEvent: log.onEvent }));
    expect(b2.screenshotCalls).toEqual([]);
    expect(m2.planRequests[0]!.page!.image).toBeUndefined();
    expect(JSON.stringify(m2.planRequests)).not.toContain(KEY);
    expect(m2.planRequests[0]!.page!.text).toContain('Your key: {{SECRET:API_KEY}}');
    expect(log.events).toContainEqual({
      type: 'notice',
      code: 'screenshot_skipped',
      audience: 'person',
      text: 'No screenshot was sent to the planner: secrets are set for agent mode, and a picture cannot hide one.',
    });

    // Secrets set, even when this page shows none: still no picture.
    const b3 = scriptedBrowser(pages);
    b3.current = b3.userTab(SHOP);
    await runAgent(input({ browser: b3, models: scriptedModels([{ needs_steps: false, steps: [], message: 'A cart.' }], []), options: { screenshots: true, secrets: { API_KEY: KEY } } }));
    expect(b3.screenshotCalls).toEqual([]);
  });

  it('no tab to start from, or one on a denied domain: nothing is planned or run', async () => {
    const browser = scriptedBrowser(pages);
    const models = scriptedModels([], []);
    const none = await runAgent(input({ browser, models }));
    expect(none).toMatchObject({ status: 'failed', reason: 'there is no current tab to start from: no Chrome window shows a tab' });
    expect(models.planRequests).toEqual([]);

    browser.current = browser.userTab(SHOP);
    const denied = await runAgent(input({ browser, models, options: { denyDomains: ['shop.example.com'] } }));
    expect(denied.status).toBe('refused');
    expect(denied.reason).toBe('tab 1 went to https://shop.example.com/cart, and shop.example.com is on the deny list (shop.example.com); the run was stopped there');
    expect(models.planRequests).toEqual([]);
  });

  it('a named tab: the one tab whose title or address holds the words; none or several is said, and nothing is planned', async () => {
    const browser = scriptedBrowser(pages);
    const cartTab = browser.userTab(SHOP);
    browser.userTab('https://dev.example.com/keys');
    const models = scriptedModels([{ needs_steps: false, steps: [], message: 'A cart.' }], []);
    const r = await runAgent(input({ browser, models, startTab: { named: 'CART' } }));
    expect(r.status).toBe('done');
    expect(browser.snapshotCalls.map((c) => c.targetId)).toEqual([cartTab]);
    expect(models.planRequests[0]!.page!.text).toContain('title="Your cart"');

    const none = await runAgent(input({ browser, models: scriptedModels([], []), startTab: { named: 'invoice' } }));
    expect(none.reason).toBe('no open tab has "invoice" in its title or address');
    const both = await runAgent(input({ browser, models: scriptedModels([], []), startTab: { named: 'example.com' } }));
    expect(both.status).toBe('failed');
    expect(both.reason).toBe(
      '2 tabs have "example.com" in their title or address (Your cart (https://shop.example.com/cart); API keys (https://dev.example.com/keys)); name one more exactly',
    );
  });

  it('a start tab that cannot be read: the planner is told so and plans without its content; the person hears why', async () => {
    const browser = scriptedBrowser(pages);
    const models = scriptedModels([{ needs_steps: false, steps: [], message: 'I cannot see that page.' }], []);
    const log = eventLog();
    await runAgent(input({ browser, models, startTab: { targetId: 'GONE' }, onEvent: log.onEvent }));
    expect(models.planRequests[0]!.page).toBeUndefined();
    expect(models.planRequests[0]!.context).toContain('The run starts on a tab the user has open (target tab 1); it could not be read just now, so plan without its content.');
    expect(log.events).toContainEqual(expect.objectContaining({ type: 'notice', code: 'tab_unreadable', audience: 'person' }));
  });

  it('a plan that says needs_steps false but lists steps, or true with none, is repaired before anything runs', async () => {
    const browser = scriptedBrowser(pages);
    browser.current = browser.userTab(SHOP);
    const models = scriptedModels([{ needs_steps: false, steps: ['Read the page'], message: 'x' }, { needs_steps: false, steps: [], message: 'Two items.' }], []);
    const r = await runAgent(input({ browser, models }));
    expect(r).toMatchObject({ status: 'done', answer: 'Two items.' });
    expect(models.planRequests[1]!.context).toContain('- steps: must be empty when needs_steps is false (the message is the answer)');
  });
});
