import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, toFile } from 'openai';
import { DeskPilotError } from '../../engine/errors';
import { clip, oneLine } from '../../engine/words';

// Speech to text through any server that speaks OpenAI's POST /audio/transcriptions:
// OpenAI itself (whisper-1, gpt-4o-transcribe, …) and self-hosted Whisper servers
// (faster-whisper-server / speaches, LocalAI, whisper.cpp's server started with
// --inference-path /v1/audio/transcriptions). Every failure becomes one sentence that says
// what to fix.

export interface TranscribeOptions {
  /** e.g. https://api.openai.com/v1 or http://localhost:8000/v1; '' means OpenAI. */
  baseURL: string;
  /** Self-hosted servers usually need none. */
  apiKey?: string;
  /** e.g. whisper-1, gpt-4o-mini-transcribe, Systran/faster-whisper-small. */
  model: string;
  audio: Uint8Array;
  /** The recording's MIME type, e.g. audio/webm;codecs=opus or audio/wav. */
  mime: string;
  /** ISO-639-1 code ('en'); without it the server detects the language. */
  language?: string;
  signal?: AbortSignal;
  /** The whole call, retries included. Default 60 s. */
  timeoutMs?: number;
  /** Retries for connection errors, 408/409/429 and 5xx (the SDK's rules). Default 1. */
  maxRetries?: number;
}

export type VoiceErrorCode =
  | 'voice_config'
  | 'voice_unreachable'
  | 'voice_auth'
  | 'voice_model_not_found'
  | 'voice_not_found'
  | 'voice_too_large'
  | 'voice_bad_audio'
  | 'voice_rate_limited'
  | 'voice_server_error'
  | 'voice_bad_request'
  | 'voice_bad_response'
  | 'voice_empty'
  | 'voice_timeout'
  | 'voice_cancelled';

export class VoiceError extends DeskPilotError {
  constructor(
    message: string,
    override readonly code: VoiceErrorCode,
    /** What the server or the network said, for logs. */
    readonly detail?: string,
  ) {
    super(message, code);
  }
}

/** Named AbortError, as fetch's is, so callers that already check for aborts recognise it. */
export class VoiceCancelledError extends VoiceError {
  constructor() {
    super('transcription cancelled', 'voice_cancelled');
    this.name = 'AbortError';
  }
}

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** OpenAI's limit for one upload; self-hosted servers are usually laxer, but a push-to-talk clip is far below it. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 60_000;

export const EMPTY_TRANSCRIPT_MESSAGE = "I didn't catch anything — try again closer to the microphone";
export const unreachableMessage = (baseURL: string) => `cannot reach the transcription server at ${baseURL} — set the voice base URL in Settings`;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;
const megabytes = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;

/**
 * The base URL the SDK gets: '' → OpenAI; trailing slashes and a pasted
 * '/audio/transcriptions' are dropped. Throws a VoiceError when it is not an http(s) URL.
 */
export function normalizeBaseUrl(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed === '') return OPENAI_BASE_URL;
  const url = trimmed.replace(/\/+$/, '').replace(/\/audio\/(transcriptions|translations)$/i, '');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new VoiceError(`the voice base URL ${JSON.stringify(trimmed)} is not a URL — set it in Settings, e.g. ${OPENAI_BASE_URL} or http://localhost:8000/v1`, 'voice_config');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new VoiceError(`the voice base URL ${JSON.stringify(trimmed)} must start with http:// or https:// — set it in Settings, e.g. ${OPENAI_BASE_URL}`, 'voice_config');
  }
  return url;
}

const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/oga': 'ogg',
  'audio/opus': 'ogg',
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/x-pn-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mpga': 'mpga',
  'audio/mp4': 'mp4',
  'audio/x-m4a': 'm4a',
  'audio/m4a': 'm4a',
  'audio/aac': 'aac',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/3gpp': '3gp',
};

/**
 * The file extension for a recording's MIME type ('audio/webm;codecs=opus' → 'webm').
 * OpenAI decides the format by the file name, so it has to be right.
 */
export function extensionForMime(mime: string): string {
  const base = mime.split(';')[0]!.trim().toLowerCase();
  const known = EXTENSIONS[base];
  if (known) return known;
  const sub = base.split('/')[1]?.replace(/^x-/, '') ?? '';
  return /^[a-z0-9]{1,10}$/.test(sub) ? sub : 'bin';
}

/**
 * The transcript without what Whisper servers write for silence or noise — whisper.cpp's
 * "[BLANK_AUDIO]", "[ Silence ]", "[MUSIC]" — and with whitespace collapsed.
 */
export function cleanTranscript(text: string): string {
  return text
    .replace(/\[\s*[A-Za-z_][A-Za-z_ ]*\s*\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The innermost cause with a system error code (ECONNREFUSED, ENOTFOUND, …), if any. */
function systemCode(e: unknown): string | undefined {
  for (let c: unknown = e, depth = 0; c && depth < 6; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

function serverSaid(e: APIError): string {
  const inner = (e.error as { message?: unknown } | undefined)?.message;
  const detail = (e.error as { detail?: unknown } | undefined)?.detail; // FastAPI servers (faster-whisper-server)
  const said = typeof inner === 'string' ? inner : typeof detail === 'string' ? detail : e.message;
  return clip(oneLine(said), 160);
}

interface Ctx {
  baseURL: string;
  model: string;
  timeoutMs: number;
  timedOut: boolean;
  signal?: AbortSignal;
}

function explain(e: unknown, c: Ctx): Error {
  if (e instanceof VoiceError) return e;
  if (c.timedOut || e instanceof APIConnectionTimeoutError) {
    return new VoiceError(
      `no transcript from the transcription server within ${seconds(c.timeoutMs)} — it may be busy or still loading "${c.model}"; try again or use a smaller model`,
      'voice_timeout',
    );
  }
  if (c.signal?.aborted || e instanceof APIUserAbortError) return new VoiceCancelledError();
  if (e instanceof APIConnectionError) {
    return new VoiceError(unreachableMessage(c.baseURL), 'voice_unreachable', systemCode(e) ?? e.message);
  }
  if (e instanceof APIError && e.status !== undefined) {
    const said = serverSaid(e);
    const status = e.status;
    if (status === 401) {
      return new VoiceError(`the transcription server at ${c.baseURL} rejected the API key (${said}) — set the API key in Settings`, 'voice_auth', said);
    }
    if (status === 403) {
      return new VoiceError(`the transcription server denied access to "${c.model}" (${said}) — check the API key and its permissions in Settings`, 'voice_auth', said);
    }
    if (status === 404 && (e.code === 'model_not_found' || /model/i.test(said))) {
      return new VoiceError(`the transcription server at ${c.baseURL} has no model "${c.model}" — set the voice model in Settings (whisper-1 for OpenAI, or a model your server has)`, 'voice_model_not_found', said);
    }
    if (status === 404 || status === 405) {
      return new VoiceError(`the server at ${c.baseURL} has no /audio/transcriptions endpoint — set the voice base URL in Settings (OpenAI-compatible servers usually end in /v1)`, 'voice_not_found', said);
    }
    if (status === 413) {
      return new VoiceError('the recording is too large for the transcription server — record a shorter request', 'voice_too_large', said);
    }
    if (status === 415 || (status === 400 && /(audio|file|format|decod|codec|invalid_file)/i.test(`${said} ${e.code ?? ''}`))) {
      return new VoiceError(`the transcription server could not read the recording (${said}) — try again, or use a server that accepts this audio format`, 'voice_bad_audio', said);
    }
    if (status === 429) {
      return new VoiceError(`the transcription server is rate-limiting requests (${said}) — wait a moment and try again`, 'voice_rate_limited', said);
    }
    if (status >= 500) {
      return new VoiceError(`the transcription server at ${c.baseURL} failed with ${status} (${said}) — check its log and try again`, 'voice_server_error', said);
    }
    return new VoiceError(`the transcription server rejected the request with ${status} (${said}) — check the voice model and base URL in Settings`, 'voice_bad_request', said);
  }
  return e instanceof Error ? e : new Error(String(e));
}

/** The text of a transcription response: a JSON object with `text`, or plain text. */
function textOf(result: unknown): string | undefined {
  if (typeof result === 'string') {
    // A server that ignores response_format and answers text/plain.
    return result;
  }
  const text = (result as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : undefined;
}

/** Transcribes one recording; resolves to the trimmed text, never to an empty string. */
export async function transcribe(opts: TranscribeOptions): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const baseURL = normalizeBaseUrl(opts.baseURL);
  const model = opts.model.trim();
  if (!model) throw new VoiceError('no voice model is set — set the voice model in Settings (whisper-1 for OpenAI)', 'voice_config');
  if (opts.signal?.aborted) throw new VoiceCancelledError();
  if (opts.audio.byteLength === 0) throw new VoiceError(EMPTY_TRANSCRIPT_MESSAGE, 'voice_empty', 'the recording has no bytes');
  if (opts.audio.byteLength > MAX_AUDIO_BYTES) {
    throw new VoiceError(`the recording is too large to transcribe (${megabytes(opts.audio.byteLength)}; the limit is ${megabytes(MAX_AUDIO_BYTES)}) — record a shorter request`, 'voice_too_large');
  }

  // One deadline for the whole call: the SDK's own timeout is per attempt and retries it.
  const ctx: Ctx = { baseURL, model, timeoutMs, timedOut: false, signal: opts.signal };
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    ctx.timedOut = true;
    controller.abort();
  }, timeoutMs);

  const client = new OpenAI({
    baseURL,
    // The SDK insists on a key; self-hosted servers ignore this one.
    apiKey: opts.apiKey?.trim() || 'not-needed',
    timeout: timeoutMs,
    maxRetries: opts.maxRetries ?? 1,
  });
  try {
    const file = await toFile(Buffer.from(opts.audio.buffer, opts.audio.byteOffset, opts.audio.byteLength), `speech.${extensionForMime(opts.mime)}`, { type: opts.mime });
    const result: unknown = await client.audio.transcriptions.create(
      { file, model, response_format: 'json', ...(opts.language ? { language: opts.language } : {}) },
      { signal: controller.signal },
    );
    const raw = textOf(result);
    if (raw === undefined) {
      throw new VoiceError(`the server at ${baseURL} answered without a transcript — set the voice base URL in Settings to an OpenAI-compatible transcription server`, 'voice_bad_response', clip(JSON.stringify(result) ?? '', 160));
    }
    const text = cleanTranscript(raw);
    if (!text) throw new VoiceError(EMPTY_TRANSCRIPT_MESSAGE, 'voice_empty', JSON.stringify(raw));
    return text;
  } catch (e) {
    throw explain(e, ctx);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
