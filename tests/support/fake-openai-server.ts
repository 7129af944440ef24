import { LoopbackLifetime } from './loopback-lifetime';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

// An OpenAI-compatible chat.completions endpoint on 127.0.0.1 with scripted answers, so the
// LLM planner is tested through the real SDK and real HTTP (retries, timeouts, aborts)
// without a model. Answers are consumed in order, one per request.

interface Common {
  /** Wait this long before answering (the client may give up first). */
  delayMs?: number;
  /**
   * Answer only once this settles: the test holds the answer until it has checked (or done) what
   * must happen while the client waits, however long that takes on a busy machine.
   */
  after?: Promise<unknown>;
  headers?: Record<string, string>;
}

export type ScriptedAnswer =
  | (Common & { json: unknown; usage?: { prompt_tokens: number; completion_tokens: number } })
  | (Common & { content: string; finishReason?: 'stop' | 'length' | 'content_filter'; usage?: { prompt_tokens: number; completion_tokens: number } })
  | (Common & { refusal: string })
  | (Common & { status: number; body?: object })
  | { hang: true };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: any;
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  response_format?: any;
  temperature?: number;
}

export interface FakeOpenAi {
  /** Ends in /v1, as OpenAI's and Ollama's do. */
  baseURL: string;
  requests: RecordedRequest[];
  script(...answers: ScriptedAnswer[]): void;
  /** Resolves once `count` requests have arrived (for aborting mid-request). */
  waitForRequests(count: number): Promise<void>;
  stop(): Promise<void>;
}

const DEFAULT_USAGE = { prompt_tokens: 321, completion_tokens: 23 };

const ERROR_BODIES: Record<number, (model: string) => object> = {
  401: () => ({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }),
  404: (model) => ({ error: { message: `The model \`${model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found' } }),
  429: () => ({ error: { message: 'Rate limit reached for requests.', type: 'requests', code: 'rate_limit_exceeded' } }),
};

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const queue: ScriptedAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const send = (res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const completion = (model: string, message: object, finishReason: string, usage = DEFAULT_USAGE) => ({
    id: `chatcmpl-fake-${requests.length}`,
    object: 'chat.completion',
    created: 1764151200,
    model,
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finishReason, logprobs: null }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });

  function answer(res: ServerResponse, a: ScriptedAnswer, model: string) {
    if ('hang' in a) return; // the socket stays open until the client gives up or stop() destroys it
    if ('status' in a) {
      // retry-after-ms keeps the SDK's retry backoff (0.5–8 s) out of the tests.
      const body = a.body ?? ERROR_BODIES[a.status]?.(model) ?? { error: { message: `fake server error ${a.status}`, type: 'server_error', code: null } };
      return send(res, a.status, body, { 'retry-after-ms': '5', ...a.headers });
    }
    if ('refusal' in a) return send(res, 200, completion(model, { content: null, refusal: a.refusal }, 'stop'), a.headers);
    if ('json' in a) return send(res, 200, completion(model, { content: JSON.stringify(a.json) }, 'stop', a.usage), a.headers);
    return send(res, 200, completion(model, { content: a.content }, a.finishReason ?? 'stop', a.usage), a.headers);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body,
        model: body?.model,
        messages: body?.messages,
        response_format: body?.response_format,
        temperature: body?.temperature,
      };
      requests.push(recorded);
      for (const w of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }

      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && path !== '/chat/completions')) {
        return send(res, 404, { error: { message: `Unknown request URL: ${req.method} ${path}`, type: 'invalid_request_error', code: 'unknown_url' } });
      }
      const next = queue.shift();
      if (!next) {
        // Not retryable: an unscripted request is a test bug and should fail at once, loudly.
        return send(res, 500, { error: { message: 'fake OpenAI server: no scripted answer left', type: 'server_error', code: null } }, { 'x-should-retry': 'false' });
      }
      const reply = () => lifetime.later('delayMs' in next ? (next.delayMs ?? 0) : 0, () => answer(res, next, recorded.model ?? 'unknown'));
      if ('after' in next && next.after) {
        const held = () => {
          if (!res.destroyed) reply();
        };
        next.after.then(held, held);
      } else reply();
    });
  });
  const lifetime = new LoopbackLifetime(server);
  const port = await lifetime.listen();

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...answers) => void queue.push(...answers),
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    stop: async () => {
      await lifetime.stop();
    },
  };
}
