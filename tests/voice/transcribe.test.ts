import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_TRANSCRIPT_MESSAGE, MAX_AUDIO_BYTES, transcribe, unreachableMessage } from '../../src/platform/voice/transcribe';
import { multipartBoundary, parseMultipart, startFakeTranscriptionServer, type FakeTranscriptionServer } from '../support/fake-transcription-server';
import { WAIT_MS } from '../support/wait-for';

// transcribe() through the real openai SDK, real multipart and real HTTP against a scripted
// OpenAI-compatible transcription server, with a real recording made by espeak-ng.

const ESPEAK_PACKAGE = 'espeak-ng';

/** Why a real recording cannot be made here, or null when espeak-ng works. */
function espeakUnavailableReason(): string | null {
  const r = spawnSync('espeak-ng', ['--version'], { encoding: 'utf8', timeout: WAIT_MS });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `espeak-ng is not installed — install the Debian package "${ESPEAK_PACKAGE}" (apt-get install -y --no-install-recommends ${ESPEAK_PACKAGE})`
      : `espeak-ng does not run (${r.error.message}) — reinstall the Debian package "${ESPEAK_PACKAGE}"`;
  }
  if (r.status !== 0) return `espeak-ng --version failed with exit code ${r.status}: ${r.stderr.trim()} — reinstall the Debian package "${ESPEAK_PACKAGE}"`;
  return null;
}

const espeakReason = espeakUnavailableReason();

/** `it` for tests that need espeak-ng: skipped with a reason, or failing under DESKPILOT_REQUIRE_DESKTOP=1. */
function itWithEspeak(name: string, fn: () => Promise<void>): void {
  if (espeakReason === null) {
    it(name, fn);
  } else if (process.env.DESKPILOT_REQUIRE_DESKTOP === '1') {
    it(`${name} (needs ${ESPEAK_PACKAGE}, DESKPILOT_REQUIRE_DESKTOP=1)`, () => {
      throw new Error(espeakReason);
    });
  } else {
    console.warn(`[voice] skipping "${name}": ${espeakReason}`);
    it.skip(name, fn);
  }
}

/** Speaks `text` into a WAV file with espeak-ng and returns its bytes. */
function speak(dir: string, text: string): Buffer {
  const file = join(dir, 'speech.wav');
  const r = spawnSync('espeak-ng', ['-w', file, text], { encoding: 'utf8', timeout: WAIT_MS });
  if (r.error || r.status !== 0) throw new Error(`espeak-ng -w failed: ${r.error?.message ?? r.stderr}`);
  return readFileSync(file);
}

/** The WAV's format and data chunk, or throws when it is not a RIFF/WAVE file. */
function parseWav(buf: Buffer): { channels: number; sampleRate: number; bitsPerSample: number; dataBytes: number; nonSilentSamples: number } {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let fmt: { channels: number; sampleRate: number; bitsPerSample: number } | undefined;
  for (let pos = 12; pos + 8 <= buf.length; ) {
    const id = buf.toString('latin1', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === 'fmt ') fmt = { channels: buf.readUInt16LE(body + 2), sampleRate: buf.readUInt32LE(body + 4), bitsPerSample: buf.readUInt16LE(body + 14) };
    if (id === 'data') {
      if (!fmt) throw new Error('data chunk before fmt chunk');
      const end = Math.min(body + size, buf.length);
      let nonSilentSamples = 0;
      if (fmt.bitsPerSample === 16) for (let i = body; i + 1 < end; i += 2) if (Math.abs(buf.readInt16LE(i)) > 500) nonSilentSamples++;
      return { ...fmt, dataBytes: end - body, nonSilentSamples };
    }
    pos = body + size + (size % 2);
  }
  throw new Error('no data chunk');
}

/** 0.1 s of 16 kHz mono silence as a WAV, for the tests about failures. */
function silentWav(): Uint8Array {
  const samples = 1600;
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(16000, 24);
  b.writeUInt32LE(32000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(samples * 2, 40);
  return new Uint8Array(b);
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('transcribe() (scripted transcription server on 127.0.0.1)', () => {
  let server: FakeTranscriptionServer;
  let dir: string;

  beforeAll(async () => {
    server = await startFakeTranscriptionServer();
    dir = mkdtempSync(join(tmpdir(), 'deskpilot-voice-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.reset();
  });
  afterEach(() => {
    expect(server.unused, 'scripted answers left unused').toBe(0);
  });

  itWithEspeak('uploads a real espeak-ng recording byte for byte and returns the scripted text trimmed', async () => {
    const wav = speak(dir, 'switch to reddit');
    const info = parseWav(wav);
    expect(info.dataBytes).toBeGreaterThan(1000);
    expect(info.nonSilentSamples).toBeGreaterThan(100); // it really spoke
    expect(info.channels).toBe(1);
    expect(info.bitsPerSample).toBe(16);

    server.script({ text: '  Switch to Reddit.\n' });
    const text = await transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: new Uint8Array(wav), mime: 'audio/wav', language: 'en' });

    expect(text).toBe('Switch to Reddit.');
    expect(server.requests).toHaveLength(1);
    const r = server.requests[0]!;
    expect(r.parseError).toBeUndefined();
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/v1/audio/transcriptions');
    expect(r.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(r.model).toBe('whisper-1');
    expect(r.filename).toMatch(/\.wav$/);
    expect(r.mime).toBe('audio/wav');
    expect(r.language).toBe('en');
    expect(r.response_format).toBe('json');
    expect(r.bytes!.length).toBe(wav.length);
    expect(r.bytes!.equals(wav)).toBe(true);
    // The SDK needs a key; without one a placeholder goes out, never the environment's.
    expect(r.headers.authorization).toBe('Bearer not-needed');
  });

  itWithEspeak('names the upload after the MIME type and sends the API key', async () => {
    const wav = speak(dir, 'close all youtube tabs');
    server.script({ text: 'close all YouTube tabs' });
    const text = await transcribe({ baseURL: `${server.baseURL}/`, apiKey: 'sk-test-123', model: 'Systran/faster-whisper-small', audio: new Uint8Array(wav), mime: 'audio/webm;codecs=opus' });
    expect(text).toBe('close all YouTube tabs');
    const r = server.requests[0]!;
    expect(r.filename).toBe('speech.webm');
    expect(r.mime).toMatch(/^audio\/webm;\s*codecs=opus$/);
    expect(r.model).toBe('Systran/faster-whisper-small');
    expect(r.language).toBeUndefined();
    expect(r.headers.authorization).toBe('Bearer sk-test-123');
    expect(r.bytes!.equals(wav)).toBe(true);
  });

  it('401 → the API-key sentence', async () => {
    server.script({ status: 401 });
    await expect(transcribe({ baseURL: server.baseURL, apiKey: 'sk-wrong', model: 'whisper-1', audio: silentWav(), mime: 'audio/wav' })).rejects.toThrow(
      `the transcription server at ${server.baseURL} rejected the API key (Incorrect API key provided.) — set the API key in Settings`,
    );
    expect(server.requests).toHaveLength(1); // 401 is not retried
  });

  it('connection refused → the unreachable sentence', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const e = await transcribe({ baseURL, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav' }).catch((e: unknown) => e);
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).message).toBe(`cannot reach the transcription server at ${baseURL} — set the voice base URL in Settings`);
    expect((e as Error).message).toBe(unreachableMessage(baseURL));
    expect((e as { code: string }).code).toBe('voice_unreachable');
    expect((e as { detail: string }).detail).toBe('ECONNREFUSED');
  });

  it('an empty or silence-only transcript → the didn\'t-catch sentence', async () => {
    server.script({ text: '   \n ' }, { text: '[BLANK_AUDIO]' });
    await expect(transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav' })).rejects.toThrow(EMPTY_TRANSCRIPT_MESSAGE);
    await expect(transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav' })).rejects.toThrow(
      "I didn't catch anything — try again closer to the microphone",
    );
  });

  it('a hanging server and a small timeout → the timeout sentence', async () => {
    server.script({ hang: true });
    // Long enough for the request to reach the server first on a busy machine.
    await expect(transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav', timeoutMs: 2000 })).rejects.toThrow(
      /^no transcript from the transcription server within 2 s — it may be busy or still loading "whisper-1"; try again or use a smaller model$/,
    );
    expect(server.requests).toHaveLength(1); // the deadline covers retries too
  });

  it('an abort while the server works → cancelled (an AbortError)', async () => {
    server.script({ hang: true });
    const abort = new AbortController();
    const pending = transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav', signal: abort.signal }).catch((e: unknown) => e);
    await server.waitForRequests(1);
    abort.abort();
    const e = (await pending) as Error;
    expect(e.message).toBe('transcription cancelled');
    expect(e.name).toBe('AbortError');
  });

  it('an already aborted signal → cancelled without a request', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav', signal: abort.signal })).rejects.toThrow('transcription cancelled');
    expect(server.requests).toHaveLength(0);
  });

  it('404 → the model sentence, or the endpoint sentence when the URL is wrong', async () => {
    server.script({ status: 404 });
    await expect(transcribe({ baseURL: server.baseURL, model: 'whisper-9', audio: silentWav(), mime: 'audio/wav' })).rejects.toThrow(
      `the transcription server at ${server.baseURL} has no model "whisper-9" — set the voice model in Settings (whisper-1 for OpenAI, or a model your server has)`,
    );
    const root = server.baseURL.replace(/\/v1$/, '');
    await expect(transcribe({ baseURL: root, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav' })).rejects.toThrow(
      `the server at ${root} has no /audio/transcriptions endpoint — set the voice base URL in Settings (OpenAI-compatible servers usually end in /v1)`,
    );
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/audio/transcriptions', '/audio/transcriptions']);
  });

  it('too-large audio → refused before upload; a 413 from the server → the same advice', async () => {
    const big = new Uint8Array(MAX_AUDIO_BYTES + 1);
    await expect(transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: big, mime: 'audio/wav' })).rejects.toThrow(
      'the recording is too large to transcribe (25 MB; the limit is 25 MB) — record a shorter request',
    );
    expect(server.requests).toHaveLength(0);
    server.script({ status: 413 });
    await expect(transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav' })).rejects.toThrow(
      'the recording is too large for the transcription server — record a shorter request',
    );
  });

  it('a 5xx is retried once, then the transcript comes through', async () => {
    server.script({ status: 503 }, { text: ' open chatgpt ' });
    await expect(transcribe({ baseURL: server.baseURL, model: 'whisper-1', audio: silentWav(), mime: 'audio/wav' })).resolves.toBe('open chatgpt');
    expect(server.requests).toHaveLength(2);
  });

  it('a pasted endpoint URL is reduced to the base URL', async () => {
    server.script({ text: 'hi' });
    await expect(transcribe({ baseURL: `${server.baseURL}/audio/transcriptions`, model: 'whisper-1', audio: silentWav(), mime: 'audio/x-wav' })).resolves.toBe('hi');
    expect(server.requests[0]!.path).toBe('/v1/audio/transcriptions');
    expect(server.requests[0]!.filename).toBe('speech.wav');
  });

  it("the fake server's multipart parser reads what undici's FormData writes, byte for byte", async () => {
    // Binary data full of CRLFs, dashes and a fake boundary must come through untouched.
    const tricky = Buffer.concat([Buffer.from('\r\n--\r\n------formdata-undici-0\r\n\r\n--'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256))]);
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new File([tricky], 'speech "x".wav', { type: 'audio/wav' }));
    form.append('language', 'de');
    const req = new Request('http://127.0.0.1/', { method: 'POST', body: form });
    const boundary = multipartBoundary(req.headers.get('content-type') ?? undefined);
    expect(boundary).toMatch(/^\S+$/);
    const parts = parseMultipart(Buffer.from(await req.arrayBuffer()), boundary!);
    expect(parts.map((p) => p.name)).toEqual(['model', 'file', 'language']);
    expect(parts[0]!.data.toString()).toBe('whisper-1');
    expect(parts[1]!.contentType).toBe('audio/wav');
    expect(parts[1]!.filename).toMatch(/^speech (%22|\\"|")x(%22|\\"|")\.wav$/);
    expect(parts[1]!.data.equals(tricky)).toBe(true);
    expect(parts[2]!.data.toString()).toBe('de');
  });
});
