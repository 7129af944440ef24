import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanRequest } from '../../src/engine/ports';
import { COMMAND_TYPES } from '../../src/protocol/commands';
import type { ContextSnapshot } from '../../src/protocol/context';
import { createLlmAnswerer, createLlmPlanner, type LlmOptions } from '../../src/platform/llm';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

const snap: ContextSnapshot = {
  taken_at: '2026-11-26T10:00:00.000Z',
  monitors: [
    { id: 'm1', name: 'LEFT', roles: ['main', 'left'], bounds: [0, 0, 1920, 1080], work_area: [0, 0, 1920, 1080], primary: true, scale: 1 },
    { id: 'm2', name: 'RIGHT', roles: ['right'], bounds: [1920, 0, 3840, 1080], work_area: [1920, 0, 3840, 1080], primary: false, scale: 1 },
  ],
  running_apps: [{ name: 'Google Chrome', pid: 7, windows: [{ id: '0x1', title: 'Chrome', bounds: [0, 0, 960, 1080], monitor: 'LEFT', focused: true, minimized: false }] }],
  installed_apps: [{ name: 'Google Chrome' }, { name: 'XTerm' }],
  tabs: [
    { index: 1, title: 'GitHub - a', url: 'https://github.com/a', domain: 'github.com', content_summary: null, is_active: true, window_index: 1, local_index: 1, target_id: 'T1' },
    { index: 2, title: 'Front page', url: 'https://www.reddit.com/', domain: 'reddit.com', content_summary: 'the front page of the internet', is_active: false, window_index: 1, local_index: 2, target_id: 'T2' },
    { index: 3, title: 'GitHub - b', url: 'https://github.com/b', domain: 'github.com', content_summary: null, is_active: false, window_index: 1, local_index: 3, target_id: 'T3' },
  ],
  presets: ['code space'],
  sources: { windows: { ok: true, message: 'X11' }, chrome: { ok: true, message: 'Chromium' }, presets: { ok: true, message: '1 preset' } },
};

const request = (over: Partial<PlanRequest> = {}): PlanRequest => ({ text: 'go to reddit', context: snap, turns: [], ...over });
const switchTo2 = { commands: [{ type: 'switch_tab', tab_index: 2 }], needs_clarification: false, clarification_reason: null };

const systemOf = (server: FakeOpenAi, i = 0) => server.requests[i]!.messages!.find((m) => m.role === 'system')!.content;
const userOf = (server: FakeOpenAi, i = 0) => server.requests[i]!.messages!.find((m) => m.role === 'user')!.content;

describe('LLM planner (scripted OpenAI-compatible server on 127.0.0.1)', () => {
  let server: FakeOpenAi;
  const options = (over: Partial<LlmOptions> = {}): LlmOptions => ({ baseURL: server.baseURL, model: 'test-model', ...over });

  beforeAll(async () => {
    server = await startFakeOpenAi();
  });
  afterAll(async () => {
    await server.stop();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('sends the strict json_schema, temperature 0, the model, the compact context and the request', async () => {
    server.script({ json: switchTo2 });
    await createLlmPlanner(options()).plan(request());

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.model).toBe('test-model');
    expect(sent.temperature).toBe(0);
    expect(sent.response_format.type).toBe('json_schema');
    expect(sent.response_format.json_schema.name).toBe('deskpilot_commands');
    expect(sent.response_format.json_schema.strict).toBe(true);
    const schemaText = JSON.stringify(sent.response_format.json_schema.schema);
    for (const type of COMMAND_TYPES) expect(schemaText).toContain(`"const":"${type}"`);
    expect(userOf(server)).toContain('2 w1 reddit.com "Front page" — the front page of the internet');
    expect(userOf(server)).toContain('Request: "go to reddit"');
    expect(userOf(server)).not.toContain('T2'); // target ids stay out of the prompt
    expect(systemOf(server)).toContain('- switch_tab: ');
    // Local servers need no key; the SDK still sends a placeholder rather than failing.
    expect(sent.headers.authorization).toBe('Bearer not-needed');
  });

  it('sends the configured API key and temperature', async () => {
    server.script({ json: switchTo2 });
    await createLlmPlanner(options({ apiKey: 'sk-test-123', temperature: 0.2 })).plan(request());
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-123');
    expect(server.requests[0]!.temperature).toBe(0.2);
  });

  it('returns the envelope with nulls dropped, confidence 1, the raw text and the usage', async () => {
    const answer = { commands: [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'right', bounds: null }], needs_clarification: false, clarification_reason: null };
    server.script({ json: answer, usage: { prompt_tokens: 1234, completion_tokens: 56 } });
    const planner = createLlmPlanner(options());
    const result = await planner.plan(request({ text: 'chrome to the right' }));
    expect(result.envelope).toEqual({ commands: [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'right' }], needs_clarification: false, clarification_reason: null });
    expect(result.confidence).toBe(1);
    expect(result.raw).toBe(JSON.stringify(answer));
    expect(result.usage).toEqual({ prompt_tokens: 1234, completion_tokens: 56 });
    expect(planner.kind).toBe('llm');
    expect(planner.describe()).toBe(`test-model at ${server.baseURL}`);
  });

  it('passes a clarification through untouched', async () => {
    const ask = { commands: [], needs_clarification: true, clarification_reason: 'Which tab: 1 "GitHub - a" or 3 "GitHub - b"?' };
    server.script({ json: ask });
    const result = await createLlmPlanner(options()).plan(request({ text: 'go to github' }));
    expect(result.envelope).toEqual(ask);
  });

  it('in json_object mode asks for json_object and describes the schema in the prompt', async () => {
    server.script({ json: switchTo2 });
    await createLlmPlanner(options({ mode: 'json_object' })).plan(request());
    expect(server.requests[0]!.response_format).toEqual({ type: 'json_object' });
    const system = systemOf(server);
    expect(system).toContain('{"commands":[…],"needs_clarification":false,"clarification_reason":null}');
    expect(system).toContain('tab_indices (positive integer[]): ');
    expect(system).toContain('- close_tab: ');
  });

  it.each([
    ['a ```json fence', 'Here you go:\n```json\n' + JSON.stringify(switchTo2) + '\n```'],
    ['a bare ``` fence', '```\n' + JSON.stringify(switchTo2) + '\n```'],
    ['<tool_code>', `<tool_code>${JSON.stringify(switchTo2)}</tool_code>`],
    ['prose around it', `Sure. I matched "reddit" to tab 2: ${JSON.stringify(switchTo2)} Hope that helps!`],
  ])('reads an answer wrapped in %s (json_object mode)', async (_, content) => {
    server.script({ content });
    const result = await createLlmPlanner(options({ mode: 'json_object' })).plan(request());
    expect(result.envelope).toEqual(switchTo2);
    expect(result.raw).toBe(content);
  });

  it('fails clearly, with an excerpt, when the answer holds no JSON', async () => {
    server.script({ content: 'I think you should switch to the reddit tab yourself.' });
    const err = await createLlmPlanner(options({ mode: 'json_object' })).plan(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'llm_bad_output', raw: 'I think you should switch to the reddit tab yourself.' });
    expect((err as Error).message).toMatch(/^test-model did not answer with a readable plan: "I think you should switch to the reddit tab yourself\." — try again/);
  });

  it('turns a refusal into a clear error', async () => {
    server.script({ refusal: "I can't help with that." });
    await expect(createLlmPlanner(options()).plan(request())).rejects.toThrow(/^test-model refused to answer: "I can't help with that\." — rephrase/);
  });

  it('retries an HTTP 500 through the SDK and then succeeds', async () => {
    server.script({ status: 500 }, { json: switchTo2 });
    const result = await createLlmPlanner(options()).plan(request());
    expect(result.envelope).toEqual(switchTo2);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 429 and then succeeds', async () => {
    server.script({ status: 429 }, { json: switchTo2 });
    const result = await createLlmPlanner(options()).plan(request());
    expect(result.envelope).toEqual(switchTo2);
    expect(server.requests).toHaveLength(2);
  });

  it('reports 5xx that persists after the retries, naming the server', async () => {
    server.script({ status: 503 }, { status: 503 });
    const err = (await createLlmPlanner(options({ maxRetries: 1 })).plan(request()).catch((e: unknown) => e)) as Error;
    expect(server.requests).toHaveLength(2);
    expect(err.message).toBe(`the LLM server at ${server.baseURL} failed with 503 (fake server error 503) after 1 retry — check the server's log and try again`);
  });

  it('reports a persistent 429 as rate limiting', async () => {
    server.script({ status: 429 }, { status: 429 }, { status: 429 });
    await expect(createLlmPlanner(options()).plan(request())).rejects.toThrow(/^the LLM server is rate-limiting requests \(Rate limit reached for requests\.\), still after 2 retries — wait/);
    expect(server.requests).toHaveLength(3);
  });

  it('says to set DESKPILOT_LLM_API_KEY on 401, without retrying', async () => {
    server.script({ status: 401 });
    const err = await createLlmPlanner(options()).plan(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'llm_auth', message: 'the LLM server refused the API key (Incorrect API key provided.) — set DESKPILOT_LLM_API_KEY' });
    expect(server.requests).toHaveLength(1);
  });

  it('names the missing model on 404', async () => {
    server.script({ status: 404 });
    await expect(createLlmPlanner(options({ model: 'llama9:70b' })).plan(request())).rejects.toThrow(
      `the LLM server at ${server.baseURL} has no model "llama9:70b" (The model \`llama9:70b\` does not exist or you do not have access to it.) — check DESKPILOT_LLM_MODEL`,
    );
  });

  it('tells a wrong base URL (no /v1) from a missing model', async () => {
    const noV1 = server.baseURL.replace(/\/v1$/, '/api');
    await expect(createLlmPlanner({ baseURL: noV1, model: 'test-model' }).plan(request())).rejects.toThrow(
      /has no chat completions endpoint .* check DESKPILOT_LLM_BASE_URL; OpenAI-compatible servers usually end in \/v1$/,
    );
    expect(server.requests[0]!.path).toBe('/api/chat/completions');
  });

  it('suggests json_object mode when a server rejects the strict schema (400)', async () => {
    server.script({ status: 400, body: { error: { message: "response_format type 'json_schema' is not supported" } } });
    await expect(createLlmPlanner(options()).plan(request())).rejects.toThrow(/not supported\) — if it does not support json_schema structured output, use the json_object mode$/);
  });

  it('gives up on a server that never answers, with a timeout error naming the model', async () => {
    server.script({ hang: true });
    // Long enough for the request to reach the server first on a busy machine.
    const err = await createLlmPlanner(options({ timeoutMs: 2000, maxRetries: 0 })).plan(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'llm_timeout' });
    expect((err as Error).message).toMatch(/^no answer from test-model within 2 s — /);
    expect(server.requests).toHaveLength(1);
  });

  it('the timeout bounds the whole call: with retries on, a hanging server is not asked again', async () => {
    server.script({ hang: true });
    const err = await createLlmPlanner(options({ timeoutMs: 2500, maxRetries: 2 })).plan(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'llm_timeout' });
    expect((err as Error).message).toMatch(/^no answer from test-model within 2\.5 s — /);
    expect(server.requests).toHaveLength(1);
  });

  it('cancels mid-request through req.signal', async () => {
    server.script({ hang: true });
    const controller = new AbortController();
    const pending = createLlmPlanner(options()).plan(request({ signal: controller.signal })).catch((e: unknown) => e);
    await server.waitForRequests(1);
    controller.abort();
    const err = await pending;
    expect(err).toMatchObject({ name: 'AbortError', code: 'llm_cancelled', message: 'the request to the LLM was cancelled' });
    expect(server.requests).toHaveLength(1); // a cancellation is not retried
  });

  it('does not call the server when the signal is already aborted', async () => {
    await expect(createLlmPlanner(options()).plan(request({ signal: AbortSignal.abort() }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });

  it('on a repair round sends the previous answer and the exact errors', async () => {
    server.script({ json: switchTo2 });
    const previous = '{"commands":[{"type":"switch_tab","tab_index":9}],"needs_clarification":false,"clarification_reason":null}';
    const errors = ['commands[0].tab_index: there is no tab 9 (tabs are 1–3)'];
    await createLlmPlanner(options()).plan(request({ repair: { previous, errors } }));
    const user = userOf(server);
    expect(user).toContain(previous);
    expect(user).toContain('- commands[0].tab_index: there is no tab 9 (tabs are 1–3)');
    expect(user).toMatch(/Fix exactly these errors/);
  });

  it('sends the recent turns so follow-ups can refer to them', async () => {
    server.script({ json: switchTo2 });
    const turns = [{ at: 1, text: 'put chrome on the left', envelope: { commands: [{ type: 'place_app', app_name: 'Google Chrome', monitor: 'left' }] }, outcome: 'Moved Google Chrome to LEFT.' }];
    await createLlmPlanner(options()).plan(request({ text: 'now the right', turns }));
    expect(userOf(server)).toContain('- "put chrome on the left" → [{"type":"place_app","app_name":"Google Chrome","monitor":"left"}] → Moved Google Chrome to LEFT.');
  });

  it('the answerer returns the plain-text answer, asked with the context and the question', async () => {
    server.script({ content: '  Two GitHub tabs: 1 "GitHub - a" and 3 "GitHub - b".\n', usage: { prompt_tokens: 200, completion_tokens: 15 } });
    const result = await createLlmAnswerer(options()).answer({ question: 'how many github tabs?', context: snap, turns: [] });
    expect(result).toEqual({ answer: 'Two GitHub tabs: 1 "GitHub - a" and 3 "GitHub - b".', usage: { prompt_tokens: 200, completion_tokens: 15 } });
    const sent = server.requests[0]!;
    expect(sent.response_format).toBeUndefined();
    expect(systemOf(server)).toMatch(/doesn't contain the answer/);
    expect(userOf(server)).toContain('3 w1 github.com "GitHub - b"');
    expect(userOf(server)).toContain('Question: "how many github tabs?"');
  });
});

describe('LLM planner against a server that is not running', () => {
  it('says it cannot reach the base URL and how to fix it', async () => {
    const gone = await startFakeOpenAi();
    await gone.stop();
    const err = await createLlmPlanner({ baseURL: gone.baseURL, model: 'test-model', maxRetries: 0 }).plan(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'llm_unreachable' });
    expect((err as Error).message).toBe(`cannot reach the LLM at ${gone.baseURL}: connection refused — is the server running? check DESKPILOT_LLM_BASE_URL`);
  });
});
