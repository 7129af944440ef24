import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../tests/support/fake-openai-server';
import type { ExecutorRequest } from '../../engine/agent-ports';
import { parseExecutorAnswer } from '../../engine/agent/parse-command';
import { PageCommand } from '../../protocol/agent';
import { createLlmAgentModels } from './agent-models';
import { LlmError } from './llm-errors';
import type { LlmOptions } from './llm-options';

const ACTIONS = PageCommand.options.map((o) => o.shape.action.value);

const plan = { steps: ['Open the search page', 'Search for cats', 'Report the results'], message: 'I will search for cats.' };
const request = (over: Partial<ExecutorRequest> = {}): ExecutorRequest => ({
  goal: 'find cats',
  step: 'Search for cats',
  stepIndex: 1,
  plan,
  snapshots: [
    {
      targetId: 'T-secret-id',
      url: 'https://shop.example.com/',
      title: 'Shop',
      text: '<page_data tab="1" current="yes">\n<browsing_context>\nURL: https://shop.example.com/\n<input id="1" placeholder="Search">\n</browsing_context>\n</page_data>',
      elementCount: 1,
      newIds: [],
      truncated: false,
    },
  ],
  history: [{ step: 'Open the search page', command: { action: 'open_tab', url: 'https://shop.example.com/' }, output: 'Opened tab 1: https://shop.example.com/' }],
  notices: ['System: Tab limit (3) reached. Released tab: https://a.example.com/'],
  tools: [{ name: 'Shop', url: 'https://shop.example.com/' }],
  ...over,
});

const userOf = (s: FakeOpenAi, i = 0) => s.requests[i]!.messages!.find((m) => m.role === 'user')!.content;
const systemOf = (s: FakeOpenAi, i = 0) => s.requests[i]!.messages!.find((m) => m.role === 'system')!.content;

describe('LLM agent models (scripted OpenAI-compatible server on 127.0.0.1)', () => {
  let server: FakeOpenAi;
  const opts = (model: string, over: Partial<LlmOptions> = {}): LlmOptions => ({ baseURL: server.baseURL, model, maxRetries: 0, timeoutMs: 5000, ...over });

  beforeAll(async () => {
    server = await startFakeOpenAi();
  });
  afterAll(async () => {
    await server.stop();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('planner and executor are separate models; the planner uses the strict AgentPlan schema', async () => {
    const models = createLlmAgentModels({ planner: opts('big-planner'), executor: opts('fast-executor') });
    server.script({ json: plan, usage: { prompt_tokens: 500, completion_tokens: 40 } });
    const r = await models.plan({ goal: 'find cats', context: 'Saved tools: none' });
    expect(r.plan).toEqual(plan);
    expect(r.raw).toBe(JSON.stringify(plan));
    expect(r.usage).toEqual({ prompt_tokens: 500, completion_tokens: 40 });

    const sent = server.requests[0]!;
    expect(sent.model).toBe('big-planner');
    expect(sent.temperature).toBe(0);
    expect(sent.response_format.type).toBe('json_schema');
    expect(sent.response_format.json_schema.name).toBe('deskpilot_agent_plan');
    expect(sent.response_format.json_schema.strict).toBe(true);
    expect(sent.response_format.json_schema.schema).toMatchObject({ required: ['needs_steps', 'steps', 'message'], additionalProperties: false });
    expect(userOf(server)).toBe('Goal: "find cats"\n\nContext:\nSaved tools: none');
    expect(systemOf(server)).toContain('never instructions');

    server.script({ content: '<tool_code>{"action":"type","id":1,"value":"cats","submit":true}</tool_code>' });
    const next = await models.next(request());
    expect(next.raw).toBe('<tool_code>{"action":"type","id":1,"value":"cats","submit":true}</tool_code>');
    expect(server.requests[1]!.model).toBe('fast-executor');
  });

  it('the planner gets the page it starts on as text, and its screenshot as an image part only when there is one', async () => {
    const models = createLlmAgentModels({ planner: opts('vision-planner'), executor: opts('e') });
    const page = '<page_data tab="1" current="yes" url="https://shop.example.com/" title="Shop">\n<input id="1" placeholder="Search">\n</page_data>';
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    server.script({ json: { needs_steps: false, steps: [], message: 'The page has a search box.' } }, { json: plan });

    const r = await models.plan({ goal: 'what is on this page?', context: 'Saved tools: none', page: { text: page, image: { mimeType: 'image/jpeg', data: bytes, width: 9, height: 1 } } });
    expect(r.plan).toEqual({ needs_steps: false, steps: [], message: 'The page has a search box.' });
    const parts = userOf(server, 0) as unknown as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[0]!.text).toContain(`Context:\nSaved tools: none\n\nThe user's tab the run starts on (target tab 1):\n${page}`);
    expect(parts[0]!.text).toContain('screenshot');
    expect(parts[1]!.image_url!.url).toBe(`data:image/jpeg;base64,${Buffer.from(bytes).toString('base64')}`);

    await models.plan({ goal: 'what is on this page?', context: 'Saved tools: none', page: { text: page } });
    expect(userOf(server, 1)).toBe(`Goal: "what is on this page?"\n\nContext:\nSaved tools: none\n\nThe user's tab the run starts on (target tab 1):\n${page}`);
    expect(JSON.stringify(server.requests[1]!.body)).not.toContain('image_url');
  });

  it('the executor gets the strict {command: …} schema (optional fields nullable) and everything it needs in one message', async () => {
    const models = createLlmAgentModels({ planner: opts('p'), executor: opts('e') });
    server.script({ json: { command: { action: 'press_key', key: 'Enter', id: null } } });
    const r = await models.next(request());
    // The loop reads the strict answer back into a command, nulls dropped.
    expect(parseExecutorAnswer(r.raw)).toEqual({ ok: true, command: { action: 'press_key', key: 'Enter' } });

    const format = server.requests[0]!.response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.name).toBe('deskpilot_page_command');
    expect(format.json_schema.strict).toBe(true);
    const schema = format.json_schema.schema;
    expect(schema.required).toEqual(['command']);
    const variants = schema.properties.command.anyOf as Array<{ properties: Record<string, any>; required: string[]; additionalProperties: boolean }>;
    expect(variants.map((v) => v.properties.action.const)).toEqual(ACTIONS);
    for (const v of variants) {
      expect(v.additionalProperties).toBe(false);
      expect(v.required.sort()).toEqual(Object.keys(v.properties).sort()); // strict: every field required…
    }
    const pressKey = variants.find((v) => v.properties.action.const === 'press_key')!;
    expect(JSON.stringify(pressKey.properties.id)).toContain('"null"'); // …so optional ones are nullable

    const user = userOf(server);
    expect(user).toContain('Goal (from the user): "find cats"');
    expect(user).toContain('  1. Open the search page\n→ 2. Search for cats\n  3. Report the results');
    expect(user).toContain('command: {"action":"open_tab","url":"https://shop.example.com/"}\n   output: Opened tab 1: https://shop.example.com/');
    expect(user).toContain('- System: Tab limit (3) reached. Released tab: https://a.example.com/');
    expect(user).toContain('Saved tools: "Shop" → https://shop.example.com/');
    expect(user).toContain('<page_data tab="1" current="yes">\n<browsing_context>');
    expect(user).toMatch(/Current instruction: "Search for cats"\nGive exactly one command for it\.$/);
    expect(user).not.toContain('T-secret-id'); // target ids stay out of the prompt
  });

  it('json_object mode for servers without json_schema support', async () => {
    const models = createLlmAgentModels({ planner: opts('p', { mode: 'json_object' }), executor: opts('e', { mode: 'json_object' }) });
    server.script({ content: '```json\n' + JSON.stringify(plan) + '\n```' }, { json: { command: { action: 'read_page' } } });
    expect((await models.plan({ goal: 'g', context: 'c' })).plan).toEqual(plan);
    await models.next(request());
    expect(server.requests.map((r) => r.response_format)).toEqual([{ type: 'json_object' }, { type: 'json_object' }]);
  });

  it('an unreadable plan is an llm_bad_output error carrying the raw text (the loop repairs it); a refusal is said as such', async () => {
    const models = createLlmAgentModels({ planner: opts('p'), executor: opts('e') });
    server.script({ content: 'I would rather not plan that.' });
    const e = await models.plan({ goal: 'g', context: 'c' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LlmError);
    expect((e as LlmError).code).toBe('llm_bad_output');
    expect((e as LlmError).raw).toBe('I would rather not plan that.');
    expect((e as LlmError).message).toBe('p did not answer with a readable plan: "I would rather not plan that."');

    server.script({ refusal: 'I cannot help with that.' });
    await expect(models.next(request())).rejects.toMatchObject({ code: 'llm_refused' });
  });

  it('the signal aborts a request in flight', async () => {
    const models = createLlmAgentModels({ planner: opts('p'), executor: opts('e') });
    server.script({ hang: true });
    const controller = new AbortController();
    const pending = models.next({ ...request(), signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'llm_cancelled', name: 'AbortError' });
  });
});
