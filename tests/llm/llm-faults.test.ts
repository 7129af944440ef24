import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanRequest } from '../../src/engine/ports';
import { createLlmPlanner, type LlmError, type LlmOptions } from '../../src/platform/llm';
import { LoopbackLifetime } from '../support/loopback-lifetime';

// An OpenAI-compatible endpoint that misbehaves at the HTTP level, over real HTTP on 127.0.0.1
// through the real SDK: a body that is no JSON, a connection dropped before or while answering.
// Each fault must be said as what it is, naming the server — not as a JSON.parse message or a
// timeout.

type Behaviour =
  | { kind: 'body'; status?: number; contentType: string; body: string }
  | { kind: 'reset' } // the socket is destroyed before any answer
  | { kind: 'reset-mid' } // headers and half a JSON body, then the socket is destroyed
  | { kind: 'hang' };

const GOOD = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1764151200,
  model: 'test-model',
  choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ commands: [{ type: 'list_tabs' }], needs_clarification: false, clarification_reason: null }), refusal: null }, finish_reason: 'stop', logprobs: null }],
});

const request: PlanRequest = {
  text: 'list my tabs',
  turns: [],
  context: {
    taken_at: '2026-11-26T10:00:00.000Z',
    monitors: [],
    running_apps: [],
    installed_apps: [],
    tabs: [],
    presets: [],
    sources: { windows: { ok: true, message: 'X11' }, chrome: { ok: true, message: 'Chromium' }, presets: { ok: true, message: 'none' } },
  },
};

describe('LLM faults at the HTTP level (real HTTP server on 127.0.0.1, real SDK)', () => {
  let lifetime: LoopbackLifetime;
  let baseURL: string;
  let script: Behaviour[] = [];
  let seen = 0;

  const answer = (req: IncomingMessage, res: ServerResponse, b: Behaviour) => {
    switch (b.kind) {
      case 'body':
        res.writeHead(b.status ?? 200, { 'content-type': b.contentType });
        return res.end(b.body);
      case 'reset':
        return req.socket.destroy();
      case 'reset-mid':
        res.writeHead(200, { 'content-type': 'application/json' });
        // Flushed, then cut: the client has the headers and part of the body.
        return res.write(GOOD.slice(0, 40), () => req.socket.destroy());
      case 'hang':
        return; // until the client gives up (stop() destroys what is left)
    }
  };

  beforeAll(async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen++;
        answer(req, res, script.shift() ?? { kind: 'body', status: 500, contentType: 'application/json', body: '{"error":{"message":"unscripted"}}' });
      });
    });
    lifetime = new LoopbackLifetime(server);
    baseURL = `http://127.0.0.1:${await lifetime.listen()}/v1`;
  });
  afterAll(async () => {
    await lifetime?.stop();
  });
  beforeEach(() => {
    script = [];
    seen = 0;
  });

  const plan = (over: Partial<LlmOptions> = {}) => createLlmPlanner({ baseURL, model: 'test-model', timeoutMs: 60_000, ...over }).plan(request);
  const failure = async (over: Partial<LlmOptions> = {}) => (await plan(over).then(() => null, (e: unknown) => e)) as LlmError;

  it('a garbage body with a JSON content type: the server sent something that is not JSON, named with an excerpt', async () => {
    script = [{ kind: 'body', contentType: 'application/json', body: '<html><body>502 Bad Gateway</body></html>' }];
    const e = await failure();
    expect(e).toMatchObject({ code: 'llm_not_json' });
    expect(e.message).toBe(
      `the LLM server at ${baseURL} sent something that is not JSON (HTTP 200, application/json): "<html><body>502 Bad Gateway</body></html>" — check DESKPILOT_LLM_BASE_URL: it must be an OpenAI-compatible endpoint, usually ending in /v1`,
    );
    expect(e.message).not.toMatch(/Unexpected token|is not valid JSON/);
    expect(seen).toBe(1); // not retried: asking again would get the same page
  });

  it('a garbage body with another content type, and an empty body, say the same', async () => {
    script = [{ kind: 'body', contentType: 'text/html; charset=utf-8', body: 'Welcome to nginx!' }];
    expect((await failure()).message).toMatch(new RegExp(`^the LLM server at ${baseURL.replace(/[./]/g, '\\$&')} sent something that is not JSON \\(HTTP 200, text/html; charset=utf-8\\): "Welcome to nginx!" — `));
    script = [{ kind: 'body', contentType: 'application/json', body: '' }];
    const empty = await failure();
    expect(empty).toMatchObject({ code: 'llm_not_json' });
    expect(empty.message).toContain('sent something that is not JSON (HTTP 200, application/json): an empty body — ');
  });

  it('a good answer sent as text/plain is still read', async () => {
    script = [{ kind: 'body', contentType: 'text/plain', body: GOOD }];
    expect((await plan()).envelope).toEqual({ commands: [{ type: 'list_tabs' }], needs_clarification: false, clarification_reason: null });
  });

  it('a connection reset before any answer, on every try: a dropped connection, not a timeout or an unreachable server', async () => {
    script = [{ kind: 'reset' }, { kind: 'reset' }, { kind: 'reset' }];
    const e = await failure();
    expect(e).toMatchObject({ code: 'llm_connection_dropped' });
    expect(e.message).toBe(
      `the LLM server at ${baseURL} dropped the connection without answering (tried 3 times) — it may have crashed or restarted, or a proxy cut the connection; check the server's log and try again`,
    );
    expect(seen).toBe(3);
  });

  it('a connection cut while the answer arrives is tried again, and said the same way when it keeps happening', async () => {
    script = [{ kind: 'reset-mid' }, { kind: 'body', contentType: 'application/json', body: GOOD }];
    expect((await plan()).envelope).toMatchObject({ commands: [{ type: 'list_tabs' }] });
    expect(seen).toBe(2);

    seen = 0;
    script = [{ kind: 'reset-mid' }, { kind: 'reset-mid' }];
    const e = await failure({ maxRetries: 1 });
    expect(e).toMatchObject({ code: 'llm_connection_dropped' });
    expect(e.message).toContain(`at ${baseURL} dropped the connection without answering (tried 2 times)`);
    expect(seen).toBe(2);
  });

  it('a reset and then no answer until the deadline: the drop is said, with the time waited', async () => {
    script = [{ kind: 'reset' }, { kind: 'hang' }, { kind: 'hang' }];
    const e = await failure({ timeoutMs: 10_000 });
    expect(e).toMatchObject({ code: 'llm_connection_dropped' });
    expect(e.message).toContain(`the LLM server at ${baseURL} dropped the connection once and then did not answer within 10 s — `);
  }, 60_000);
});
