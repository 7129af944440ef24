import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { runAgent } from '../../src/engine/agent';
import { createLlmAgentModels } from '../../src/platform/llm/agent-models';
import { startAgentRig, type AgentRig } from '../support/agent-rig';
import { describeDesktop } from '../support/describe-desktop';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

// A secret re-encoded by the page it was typed into must not reach the model in any form:
// tests/agent-pages/leak.html puts btoa(secret) in its title, hex(secret) in a fetch URL, and
// more encodings in its text. Real Chromium, the real CDP agent browser, the real OpenAI SDK
// over real HTTP to a scripted server; what that server received is what the model would read.

const SECRET = 'Tr0ub4dor&3-leak';
const bytes = Buffer.from(SECRET, 'utf8');
const hex = bytes.toString('hex');

/** The secret's encodings as a page would compute them (Node's Buffer, not DeskPilot's code). */
const FORMS: Record<string, string> = {
  plain: SECRET,
  uri: encodeURIComponent(SECRET),
  reversed: [...SECRET].reverse().join(''),
  hex,
  HEX: hex.toUpperCase(),
  percent: hex.replace(/../g, '%$&'),
  base64: bytes.toString('base64'),
  base64url: bytes.toString('base64url'),
};

/** Any base64/base64url run in the text that decodes (from any of its first four characters) to bytes holding the secret. */
function base64Leak(text: string): string | null {
  const needle = bytes.toString('latin1');
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    const std = run.replace(/-/g, '+').replace(/_/g, '/');
    for (let shift = 0; shift < 4; shift++) if (Buffer.from(std.slice(shift), 'base64').toString('latin1').includes(needle)) return run;
  }
  return null;
}

const userMessage = (llm: FakeOpenAi, i: number) => llm.requests[i]!.messages!.find((m) => m.role === 'user')!.content;

describeDesktop('agent: a secret the page re-encodes never reaches the model (real Chromium, scripted OpenAI-compatible server)', () => {
  let rig: AgentRig | undefined;
  let llm: FakeOpenAi;

  beforeAll(async () => {
    rig = await startAgentRig();
  });
  afterAll(async () => {
    await rig?.stop();
  });
  beforeEach(async () => {
    llm = await startFakeOpenAi();
  });
  afterEach(async () => {
    await llm?.stop();
  });

  // In a password field the browser side knows the value too; in a text field only the agent loop does.
  it.each(['password', 'text'])('typed into a %s field: btoa(secret) in the title, hex(secret) in a fetch URL, more encodings in the page text — all hidden', async (field) => {
    const { pages, raw, browser } = rig!;
    const page = pages.url(`/leak.html?field=${field}`);
    const t = (cmd: object) => ({ content: `<tool_code>${JSON.stringify(cmd)}</tool_code>` });
    llm.script(
      { json: { steps: ['Open the sign-in page', 'Sign in with the password', 'Read the page', 'Report'], message: 'I will sign in.' } },
      t({ action: 'open_tab', url: page }),
      t({ action: 'type', id: 1, value: '{{SECRET:PW}}', submit: true }),
      t({ action: 'read_page' }),
      t({ action: 'done', answer: 'Signed in.' }),
    );
    const questions: string[] = [];
    const result = await runAgent({
      goal: 'sign in on the leak page',
      browser,
      models: createLlmAgentModels({
        planner: { baseURL: llm.baseURL, model: 'scripted-planner', timeoutMs: 60_000 },
        executor: { baseURL: llm.baseURL, model: 'scripted-executor', timeoutMs: 60_000 },
      }),
      options: { secrets: { PW: SECRET } },
      approve: async () => ({ approved: true }),
      confirm: async (q) => {
        questions.push(q);
        return true; // the user allows typing the password
      },
    });
    expect(result.status).toBe('done');
    expect(questions).toEqual([
      field === 'password' ? expect.stringMatching(/^Type into the password field \(element 1\) on /) : expect.stringMatching(/^Type the secret PW into element 1 \(input, not a password field\) on /),
    ]);
    expect(llm.requests).toHaveLength(5);

    // The page really did re-encode the secret (checked with raw CDP and on the page server).
    const tab = (await raw.Target.getTargets()).targetInfos.find((x) => x.type === 'page' && x.url === page);
    expect(tab?.title).toBe(FORMS.base64);
    expect(pages.requests.some((q) => q.url === `/api/collect?h=${hex}`)).toBe(true);

    // What the model read after the secret was typed: the title, the API call and the page
    // text are there, each with the secret replaced — by its placeholder, or by [redacted] where
    // the browser side already knew the value from the password field.
    const hidden = String.raw`(\{\{SECRET:PW\}\}|\[redacted\])`;
    const afterTyping = userMessage(llm, 3);
    expect(afterTyping).toContain('title="{{SECRET:PW}}"');
    expect(afterTyping).toMatch(new RegExp(String.raw`<call method="GET" url="/api/collect\?h=${hidden}"`));
    const afterReading = userMessage(llm, 4);
    for (const label of ['reversed', 'pct']) expect(afterReading).toMatch(new RegExp(`${label} ${hidden} `));
    // A 16-byte secret in upper-case hex has the shape of a Chromium tab id (32 upper-case hex
    // digits), which the browser side removes from all page text before the agent loop sees it.
    expect(afterReading).toMatch(new RegExp(String.raw`HEX (${hidden.slice(1, -1)}|\[tab id removed\]) `));
    for (const label of ['offset0', 'offset1', 'offset2']) expect(afterReading).toMatch(new RegExp(String.raw`${label} [\w+/=-]*${hidden}`));
    if (field === 'text') expect(afterReading).not.toContain('[redacted]'); // the agent loop alone hid it

    // And nothing the LLM server received holds the secret in any of those forms.
    const wire = JSON.stringify(llm.requests.map((q) => q.body));
    for (const [name, form] of Object.entries(FORMS)) expect(wire.includes(form), name).toBe(false);
    expect(base64Leak(wire)).toBeNull();
    expect(JSON.stringify(result.steps)).not.toContain(hex);
  }, 120_000);
});
