import { LoopbackLifetime } from './loopback-lifetime';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { errorMessage } from '../../src/engine/errors';

// An OpenAI-compatible POST /v1/audio/transcriptions on 127.0.0.1 with scripted answers, so
// voice is tested through the real SDK, real multipart uploads and real HTTP (timeouts,
// aborts) without a speech model. Answers are consumed in order, one per request. The
// multipart body is parsed here by hand (no parser is installed), independently of the
// client's encoder, so the test sees exactly which bytes went over the wire.

interface Common {
  /** Wait this long before answering (the client may give up first). */
  delayMs?: number;
  headers?: Record<string, string>;
}

export type ScriptedTranscription =
  | (Common & { text: string; extra?: Record<string, unknown> })
  | (Common & { status: number; body?: object | string })
  | { hang: true };

export interface MultipartPart {
  name: string;
  filename?: string;
  /** The part's Content-Type, when it had one. */
  contentType?: string;
  headers: Record<string, string>;
  data: Buffer;
}

export interface RecordedTranscription {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Every form part, in order (empty when the body was not multipart). */
  parts: MultipartPart[];
  /** Text fields by name (model, language, response_format, …). */
  fields: Record<string, string>;
  model?: string;
  filename?: string;
  /** The file part's Content-Type. */
  mime?: string;
  /** The uploaded file's bytes. */
  bytes?: Buffer;
  language?: string;
  response_format?: string;
  /** Why the body could not be parsed, if it could not. */
  parseError?: string;
}

export interface FakeTranscriptionServer {
  /** Ends in /v1, as OpenAI's does. */
  baseURL: string;
  requests: RecordedTranscription[];
  script(...answers: ScriptedTranscription[]): void;
  /** Scripted answers not used yet. */
  readonly unused: number;
  /** Forgets recorded requests and unused answers (between tests). */
  reset(): void;
  /** Resolves once `count` requests have arrived (for aborting mid-request). */
  waitForRequests(count: number): Promise<void>;
  stop(): Promise<void>;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary parameter of a multipart/form-data Content-Type, unquoted. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

/** A header parameter such as name="file" or filename="speech.wav" (quoted-string, backslash escapes). */
function dispositionParam(disposition: string, key: string): string | undefined {
  const re = new RegExp(`;\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i');
  const m = re.exec(disposition);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
}

/**
 * Parses a multipart/form-data body (RFC 7578): parts are separated by CRLF--boundary, the
 * first delimiter may start the body, the last is followed by "--". Part data is binary and
 * may contain CRLF and "--" freely; only the full delimiter ends it.
 */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // Treat the body as if it started with CRLF so the first delimiter looks like the others.
  const buf = Buffer.concat([CRLF, body]);
  let pos = buf.indexOf(delimiter);
  if (pos < 0) throw new Error(`no multipart boundary "${boundary}" in the body`);
  const parts: MultipartPart[] = [];
  for (;;) {
    pos += delimiter.length;
    if (buf.subarray(pos, pos + 2).toString('latin1') === '--') return parts; // close delimiter
    // Transport padding (spaces/tabs) may follow a delimiter before its CRLF.
    while (buf[pos] === 0x20 || buf[pos] === 0x09) pos++;
    if (!buf.subarray(pos, pos + 2).equals(CRLF)) throw new Error(`malformed multipart delimiter at byte ${pos - 2}`);
    pos += 2;
    const headerEnd = buf.indexOf(HEADER_END, pos);
    if (headerEnd < 0) throw new Error('multipart part without the blank line that ends its headers');
    const headers: Record<string, string> = {};
    for (const line of buf.subarray(pos, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const dataStart = headerEnd + HEADER_END.length;
    const next = buf.indexOf(delimiter, dataStart);
    if (next < 0) throw new Error('multipart body ends without a closing boundary');
    const disposition = headers['content-disposition'] ?? '';
    if (!/^\s*form-data\s*(;|$)/i.test(disposition)) throw new Error(`multipart part without Content-Disposition: form-data (${JSON.stringify(disposition)})`);
    const name = dispositionParam(disposition, 'name');
    if (name === undefined) throw new Error('multipart part without a name');
    const filename = dispositionParam(disposition, 'filename');
    parts.push({
      name,
      ...(filename !== undefined ? { filename } : {}),
      ...(headers['content-type'] !== undefined ? { contentType: headers['content-type'] } : {}),
      headers,
      data: Buffer.from(buf.subarray(dataStart, next)),
    });
    pos = next;
  }
}

export async function startFakeTranscriptionServer(): Promise<FakeTranscriptionServer> {
  const queue: ScriptedTranscription[] = [];
  const requests: RecordedTranscription[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const send = (res: ServerResponse, status: number, body: object | string, headers: Record<string, string> = {}) => {
    if (res.destroyed || res.writableEnded) return;
    const isText = typeof body === 'string';
    res.writeHead(status, { 'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json', ...headers });
    res.end(isText ? body : JSON.stringify(body));
  };

  const errorBody = (status: number, model: string): object => {
    switch (status) {
      case 401:
        return { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } };
      case 404:
        return { error: { message: `The model \`${model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found' } };
      case 413:
        return { error: { message: 'Maximum content size limit (26214400) exceeded.', type: 'invalid_request_error', code: null } };
      default:
        return { error: { message: `fake transcription server error ${status}`, type: 'server_error', code: null } };
    }
  };

  function answer(res: ServerResponse, a: ScriptedTranscription, model: string) {
    if ('hang' in a) return; // the socket stays open until the client gives up or stop() destroys it
    if ('status' in a) {
      // retry-after-ms keeps the SDK's retry backoff out of the tests.
      return send(res, a.status, a.body ?? errorBody(a.status, model), { 'retry-after-ms': '5', ...a.headers });
    }
    return send(res, 200, { text: a.text, ...a.extra }, a.headers);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = Buffer.concat(chunks);
      const recorded: RecordedTranscription = { method: req.method ?? 'GET', path, headers: req.headers, parts: [], fields: {} };
      const boundary = multipartBoundary(req.headers['content-type']);
      if (boundary) {
        try {
          recorded.parts = parseMultipart(body, boundary);
        } catch (e) {
          recorded.parseError = errorMessage(e);
        }
      } else if (req.method === 'POST') {
        recorded.parseError = `not multipart/form-data: ${req.headers['content-type'] ?? '(no Content-Type)'}`;
      }
      for (const p of recorded.parts) if (p.filename === undefined) recorded.fields[p.name] = p.data.toString('utf8');
      const file = recorded.parts.find((p) => p.name === 'file' && p.filename !== undefined);
      recorded.model = recorded.fields.model;
      recorded.language = recorded.fields.language;
      recorded.response_format = recorded.fields.response_format;
      if (file) {
        recorded.filename = file.filename;
        recorded.mime = file.contentType;
        recorded.bytes = file.data;
      }
      requests.push(recorded);
      for (const w of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }

      if (req.method !== 'POST' || path !== '/v1/audio/transcriptions') {
        return send(res, 404, { error: { message: `Invalid URL (${req.method} ${path})`, type: 'invalid_request_error', code: null } });
      }
      if (recorded.parseError || !file || !recorded.model) {
        const why = recorded.parseError ?? (!file ? "no 'file' part" : "no 'model' field");
        return send(res, 400, { error: { message: `fake transcription server: bad upload: ${why}`, type: 'invalid_request_error', code: null } });
      }
      const next = queue.shift();
      if (!next) {
        // Not retryable: an unscripted request is a test bug and should fail at once, loudly.
        return send(res, 500, { error: { message: 'fake transcription server: no scripted answer left', type: 'server_error', code: null } }, { 'x-should-retry': 'false' });
      }
      lifetime.later('delayMs' in next ? (next.delayMs ?? 0) : 0, () => answer(res, next, recorded.model ?? 'unknown'));
    });
  });
  const lifetime = new LoopbackLifetime(server);
  const port = await lifetime.listen();

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...answers) => void queue.push(...answers),
    get unused() {
      return queue.length;
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    waitForRequests: (count) => (requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    stop: async () => {
      await lifetime.stop();
    },
  };
}
