import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { DeskPilotError } from '../../engine/errors';
import { clip, oneLine } from '../../engine/words';
import type { ResolvedLlmOptions } from './llm-options';

// Every way a call to the LLM can fail, said in one sentence that tells the user what to do.
// The SDK has already retried what is worth retrying by the time an error gets here.

export type LlmErrorCode =
  | 'llm_unreachable'
  | 'llm_auth'
  | 'llm_model_not_found'
  | 'llm_not_found'
  | 'llm_timeout'
  | 'llm_connection_dropped'
  | 'llm_not_json'
  | 'llm_rate_limited'
  | 'llm_server_error'
  | 'llm_bad_request'
  | 'llm_refused'
  | 'llm_bad_output'
  | 'llm_cancelled';

export class LlmError extends DeskPilotError {
  constructor(
    message: string,
    override readonly code: LlmErrorCode,
    /** The model's raw text, when the failure is about what it answered. */
    readonly raw?: string,
  ) {
    super(message, code);
  }
}

/** Named AbortError, as fetch's is, so callers that already check for aborts recognise it. */
export class LlmCancelledError extends LlmError {
  constructor() {
    super('the request to the LLM was cancelled', 'llm_cancelled');
    this.name = 'AbortError';
  }
}

export const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

export const excerpt = (text: string) => JSON.stringify(clip(oneLine(text), 120));

/** The innermost cause with a system error code (ECONNREFUSED, ENOTFOUND, …), if any. */
function systemCode(e: unknown): string | undefined {
  for (let c: unknown = e, depth = 0; c && depth < 6; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}

const CONNECTION_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** Codes of a connection the other side closed or reset (undici says UND_ERR_SOCKET, "other side closed"). */
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** Whether the error, or one of its causes, is a connection the server (or something between) dropped. */
export function isDroppedConnection(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c && depth < 6; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && DROPPED_CODES.has(code)) return true;
  }
  return false;
}

/** The server closed or reset the connection; `how` says more ("without answering (tried 3 times)"). */
export function droppedError(o: ResolvedLlmOptions, how: string): LlmError {
  return new LlmError(
    `the LLM server at ${o.baseURL} dropped the connection ${how} — it may have crashed or restarted, or a proxy cut the connection; check the server's log and try again`,
    'llm_connection_dropped',
  );
}

/** An answer that is no JSON at all: an HTML error page from a proxy, a different kind of server, an empty body. */
export function notJsonError(o: ResolvedLlmOptions, what: { status?: number; contentType?: string | null; text: string }): LlmError {
  const http = [what.status === undefined ? '' : `HTTP ${what.status}`, what.contentType ?? ''].filter(Boolean).join(', ');
  const body = what.text.trim() ? `: ${excerpt(what.text)}` : ': an empty body';
  return new LlmError(
    `the LLM server at ${o.baseURL} sent something that is not JSON${http ? ` (${http})` : ''}${body} — check DESKPILOT_LLM_BASE_URL: it must be an OpenAI-compatible endpoint, usually ending in /v1`,
    'llm_not_json',
  );
}

function serverMessage(e: APIError): string {
  const inner = (e.error as { message?: unknown } | undefined)?.message;
  return clip(typeof inner === 'string' ? inner : e.message, 160);
}

export function explainLlmError(e: unknown, o: ResolvedLlmOptions, signal?: AbortSignal): Error {
  if (e instanceof LlmError) return e;
  if (signal?.aborted || e instanceof APIUserAbortError) return new LlmCancelledError();
  const retries = o.maxRetries === 1 ? '1 retry' : `${o.maxRetries} retries`;
  if (e instanceof APIConnectionTimeoutError) {
    return new LlmError(`no answer from ${o.model} within ${seconds(o.timeoutMs)} — the server may be busy or still loading the model; try again or raise the timeout`, 'llm_timeout');
  }
  if (isDroppedConnection(e)) {
    // The SDK retries a drop (also one while a JSON answer arrives, see llm-exchange.ts).
    const tries = e instanceof APIConnectionError && o.maxRetries > 0 ? ` (tried ${o.maxRetries + 1} times)` : '';
    return droppedError(o, `without answering${tries}`);
  }
  if (e instanceof APIConnectionError) {
    const code = systemCode(e);
    const why = code ? (CONNECTION_WORDS[code] ?? code) : e.message;
    return new LlmError(`cannot reach the LLM at ${o.baseURL}: ${why} — is the server running? check DESKPILOT_LLM_BASE_URL`, 'llm_unreachable');
  }
  if (e instanceof APIError && e.status !== undefined) {
    const said = serverMessage(e);
    switch (true) {
      case e.status === 401:
        return new LlmError(`the LLM server refused the API key (${said}) — set DESKPILOT_LLM_API_KEY`, 'llm_auth');
      case e.status === 403:
        return new LlmError(`the LLM server denied access to ${o.model} (${said}) — check DESKPILOT_LLM_API_KEY and the key's permissions`, 'llm_auth');
      case e.status === 404 && (e.code === 'model_not_found' || /model/i.test(said)):
        return new LlmError(`the LLM server at ${o.baseURL} has no model "${o.model}" (${said}) — check DESKPILOT_LLM_MODEL, or pull/load the model first`, 'llm_model_not_found');
      case e.status === 404:
        return new LlmError(`the LLM server at ${o.baseURL} has no chat completions endpoint (${said}) — check DESKPILOT_LLM_BASE_URL; OpenAI-compatible servers usually end in /v1`, 'llm_not_found');
      case e.status === 429:
        return new LlmError(`the LLM server is rate-limiting requests (${said}), still after ${retries} — wait a moment and try again`, 'llm_rate_limited');
      case e.status >= 500:
        return new LlmError(`the LLM server at ${o.baseURL} failed with ${e.status} (${said}) after ${retries} — check the server's log and try again`, 'llm_server_error');
      case e.status === 400 && o.mode === 'strict':
        return new LlmError(`the LLM server rejected the request (${said}) — if it does not support json_schema structured output, use the json_object mode`, 'llm_bad_request');
      default:
        return new LlmError(`the LLM server rejected the request with ${e.status} (${said}) — check the model and server settings`, 'llm_bad_request');
    }
  }
  return e instanceof Error ? e : new Error(String(e));
}
