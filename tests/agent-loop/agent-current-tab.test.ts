import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import type { RawCdp } from '../support/raw-cdp';
import { startAgentCliRig, type AgentCliRig } from './agent-cli-rig';

// `deskpilot agent --current-tab`: the run starts on the tab the person is looking at. The real
// CLI as a child process, the real CDP agent browser on real Chromium, the real OpenAI SDK over
// real HTTP to a scripted OpenAI-compatible server; the page is checked independently, with raw CDP.

type Part = { type: string; text?: string; image_url?: { url: string } };
const plannerContent = (llm: FakeOpenAi) => llm.requests[0]!.messages!.find((m) => m.role === 'user')!.content as unknown as string | Part[];
const userMessage = (llm: FakeOpenAi, i: number) => llm.requests[i]!.messages!.find((m) => m.role === 'user')!.content;

/** A JPEG's size from its start-of-frame segment: [width, height]. */
function jpegSize(bytes: Buffer): [number, number] {
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  let i = 2;
  while (i < bytes.length) {
    const marker = bytes[i + 1]!;
    const length = bytes.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc2) return [bytes.readUInt16BE(i + 7), bytes.readUInt16BE(i + 5)];
    i += 2 + length;
  }
  throw new Error('no start-of-frame segment in the JPEG');
}

describeDesktop('deskpilot agent --current-tab (real Chromium, scripted OpenAI-compatible server)', () => {
  let rig: AgentCliRig;
  let raw: RawCdp;
  let llm: FakeOpenAi;
  let env: NodeJS.ProcessEnv;
  /** A configuration with a secret set, beside the rig's own (none). */
  let secretDir: string;
  /** The person's tab in front (search.html); nav-a.html is open behind it. */
  let shop: string;

  const SECRET = 'kq7-Zm2x-Tr0ub4dor-e2e';

  beforeAll(async () => {
    rig = await startAgentCliRig('agent-current-tab', () => ({}));
    ({ raw, env } = rig);
    env.DESKPILOT_E2E_API_KEY = SECRET;
    secretDir = path.join(rig.dir, 'secret');
    mkdirSync(secretDir);
    writeFileSync(path.join(secretDir, 'config.json'), JSON.stringify({ agent: { secrets: { API_KEY: 'DESKPILOT_E2E_API_KEY' } } }));
  });

  afterAll(async () => {
    await rig?.stop();
  });

  beforeEach(async () => {
    llm = await startFakeOpenAi();
    env.DESKPILOT_LLM_BASE_URL = llm.baseURL;
    shop = (await rig.onlyTabs(['/nav-a.html', '/search.html']))[1]!; // opened last: the tab in front
    await raw.evaluate(shop, "window.__userMarker = 'untouched'");
  });

  afterEach(async () => {
    await llm?.stop();
  });

  const pageState = async () => ({
    marker: await raw.evaluate(shop, 'window.__userMarker'),
    history: await raw.evaluate(shop, 'history.length'),
    query: await raw.evaluate(shop, "document.getElementById('q').value"),
    status: await raw.evaluate(shop, "document.getElementById('status').textContent"),
    tabs: (await raw.pages()).map((p) => p.targetId).sort(),
  });

  it('a question about the page: the planner gets its snapshot (no screenshot by default) and answers directly; no executor request, the page unchanged', async () => {
    const before = await pageState();
    llm.script({ json: { needs_steps: false, steps: [], message: 'A shop search page with a search box and a Search button.' } });
    const r = await runCli(['agent', '--current-tab', '--json', 'what is on this page?'], { env });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'done', answer: 'A shop search page with a search box and a Search button.', commands: 0, steps: [] });
    expect(r.stderr).toContain('answered from the page; nothing was run\n');

    expect(llm.requests).toHaveLength(1); // the planner only
    const content = plannerContent(llm);
    expect(typeof content).toBe('string');
    expect(content).toMatch(/<page_data tab="1" current="yes" url="http:\/\/127\.0\.0\.1:\d+\/search\.html" title="Shop search">/);
    expect(content).toMatch(/<input id="1"[^>]*placeholder="Search products"/);
    expect(content).toContain("The run starts on a tab the user has open (target tab 1)");
    expect(content).toMatch(/<page_data tab="1" source="read_page">\nShop\s+Search\n<\/page_data>/); // what the page says, as data
    expect(JSON.stringify(llm.requests[0]!.body)).not.toContain('image_url');
    expect(JSON.stringify(llm.requests[0]!.body)).not.toContain('/nav-a.html'); // the tab behind is not the current one
    expect(await pageState()).toEqual(before);
  });

  it('with DESKPILOT_AGENT_SCREENSHOTS=1 the planner request also carries a downscaled JPEG of the tab', async () => {
    llm.script({ json: { needs_steps: false, steps: [], message: 'A search page.' } });
    const r = await runCli(['agent', '--current-tab', '--json', 'what is on this page?'], { env: { ...env, DESKPILOT_AGENT_SCREENSHOTS: '1' } });
    expect(r.code).toBe(0);
    const content = plannerContent(llm) as Part[];
    expect(content.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(content[0]!.text).toContain('title="Shop search"');
    const url = content[1]!.image_url!.url;
    expect(url.startsWith('data:image/jpeg;base64,')).toBe(true);
    const [width, height] = jpegSize(Buffer.from(url.slice('data:image/jpeg;base64,'.length), 'base64'));
    const viewport = (await raw.evaluate(shop, '[innerWidth, innerHeight]')) as [number, number];
    expect(width).toBe(Math.min(viewport[0], 1024));
    expect(height).toBe(Math.round((viewport[1] * width) / viewport[0]));
  });

  it('steps run on the current tab: the search is typed into that tab, no tab is opened', async () => {
    const before = await pageState();
    llm.script(
      { json: { needs_steps: true, steps: ['Search for "rain" in the search box', 'Report the results'], message: 'I will search this shop for rain.' } },
      { content: '<tool_code>{"action": "type", "id": 1, "value": "rain", "submit": true}</tool_code>' },
      { content: '<tool_code>{"action": "done", "answer": "Blue rain jacket, Rain boots."}</tool_code>' },
    );
    const r = await runCli(['agent', '--current-tab', '--yes', 'search this shop for rain'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Blue rain jacket, Rain boots.\n');
    expect(userMessage(llm, 1)).toMatch(/<page_data tab="1" current="yes" url="http:\/\/127\.0\.0\.1:\d+\/search\.html" title="Shop search">/);

    const after = await pageState();
    expect(after.tabs).toEqual(before.tabs);
    expect(after.query).toBe('rain');
    await raw.waitFor(async () => (await raw.evaluate(shop, "document.getElementById('status').textContent")) === '2 results for rain', 'the search results');
    expect(after.marker).toBe('untouched'); // the same document: typed into, not reloaded
  });

  it('--tab WORDS starts on the open tab whose title or address holds them (here the one behind); both flags at once are refused', async () => {
    llm.script({ json: { needs_steps: false, steps: [], message: 'Page A, with a link to B.' } });
    const r = await runCli(['agent', '--tab', 'page a', '--json', 'what is on that page?'], { env });
    expect(r.code).toBe(0);
    expect(r.json.answer).toBe('Page A, with a link to B.');
    expect(plannerContent(llm)).toMatch(/<page_data tab="1" current="yes" url="http:\/\/127\.0\.0\.1:\d+\/nav-a\.html" title="Page A">/);
    expect(plannerContent(llm)).toMatch(/<a id="1"[^>]*>Go to B<\/a>/);

    const both = await runCli(['agent', '--tab', 'page a', '--current-tab', 'what is on that page?'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('--current-tab and --tab: choose one tab to start on\n');
    expect(llm.requests).toHaveLength(1);
  });

  it('a secret shown on the page never reaches the planner; with a secret set, no screenshot is sent', async () => {
    await raw.evaluate(shop, `document.getElementById('status').textContent = 'Your API key: ${SECRET}'`);
    llm.script({ json: { needs_steps: false, steps: [], message: 'An API key is shown.' } });
    const r = await runCli(['agent', '--current-tab', '--json', 'what does the page say?'], {
      env: { ...env, DESKPILOT_CONFIG_DIR: secretDir, DESKPILOT_AGENT_SCREENSHOTS: '1' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No screenshot was sent to the planner: secrets are set for agent mode, and a picture cannot hide one.');
    const wire = JSON.stringify(llm.requests.map((q) => q.body));
    for (const form of [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64')]) expect(wire).not.toContain(form);
    expect(plannerContent(llm)).toContain('Your API key: {{SECRET:API_KEY}}');
    expect(wire).not.toContain('image_url');
  });
});
