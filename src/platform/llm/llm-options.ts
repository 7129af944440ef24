import OpenAI from 'openai';

// How to reach an OpenAI-compatible chat endpoint: OpenAI itself, Ollama (/v1), LM Studio,
// llama.cpp's server. Local servers ignore the key, so none is required.

export interface LlmOptions {
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Per attempt; default 30000. */
  timeoutMs?: number;
  /** The SDK's retries on connection errors, timeouts, 408/409/429/5xx; default 2. */
  maxRetries?: number;
  /** strict: json_schema structured output; json_object: for servers or models without it. Default strict. */
  mode?: 'strict' | 'json_object';
  /** Default 0: planning should be repeatable. */
  temperature?: number;
}

export type ResolvedLlmOptions = Required<Omit<LlmOptions, 'apiKey'>> & { apiKey?: string };

export function withDefaults(opts: LlmOptions): ResolvedLlmOptions {
  return { timeoutMs: 30_000, maxRetries: 2, mode: 'strict', temperature: 0, ...stripUndefined(opts) };
}

export function createClient(o: ResolvedLlmOptions): OpenAI {
  return new OpenAI({ baseURL: o.baseURL, apiKey: o.apiKey ?? 'not-needed', timeout: o.timeoutMs, maxRetries: o.maxRetries });
}

// `{ timeoutMs: undefined }` must still mean "the default", not override it.
function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
