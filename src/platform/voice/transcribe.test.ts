import { describe, expect, it } from 'vitest';
import { cleanTranscript, extensionForMime, normalizeBaseUrl, OPENAI_BASE_URL, transcribe } from './transcribe';

describe('extensionForMime', () => {
  it.each([
    ['audio/webm;codecs=opus', 'webm'],
    ['audio/webm', 'webm'],
    ['audio/ogg; codecs=opus', 'ogg'],
    ['audio/wav', 'wav'],
    ['audio/x-wav', 'wav'],
    ['audio/wave', 'wav'],
    ['audio/mpeg', 'mp3'],
    ['audio/mp4', 'mp4'],
    ['audio/x-m4a', 'm4a'],
    ['audio/flac', 'flac'],
    ['AUDIO/WEBM', 'webm'],
    ['audio/x-aiff', 'aiff'],
    ['audio/vnd.weird+thing', 'bin'],
  ])('%s → %s', (mime, ext) => {
    expect(extensionForMime(mime)).toBe(ext);
  });
});

describe('normalizeBaseUrl', () => {
  it('defaults to OpenAI and drops trailing slashes and a pasted endpoint path', () => {
    expect(normalizeBaseUrl('')).toBe(OPENAI_BASE_URL);
    expect(normalizeBaseUrl('  ')).toBe(OPENAI_BASE_URL);
    expect(normalizeBaseUrl('http://localhost:8000/v1/')).toBe('http://localhost:8000/v1');
    expect(normalizeBaseUrl('http://localhost:8080/v1/audio/transcriptions')).toBe('http://localhost:8080/v1');
    expect(normalizeBaseUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
  });

  it('says what to fix for something that is not an http(s) URL', () => {
    expect(() => normalizeBaseUrl('localhost:8000')).toThrow(/must start with http:\/\/ or https:\/\/ — set it in Settings/);
    expect(() => normalizeBaseUrl('not a url')).toThrow('the voice base URL "not a url" is not a URL — set it in Settings, e.g. https://api.openai.com/v1 or http://localhost:8000/v1');
  });
});

describe('cleanTranscript', () => {
  it('trims, collapses whitespace and drops silence markers', () => {
    expect(cleanTranscript('  Switch to Reddit.\n')).toBe('Switch to Reddit.');
    expect(cleanTranscript(' chrome left\n and cursor right ')).toBe('chrome left and cursor right');
    expect(cleanTranscript('[BLANK_AUDIO]')).toBe('');
    expect(cleanTranscript('[ Silence ]')).toBe('');
    expect(cleanTranscript('open tab [MUSIC] 3')).toBe('open tab 3');
  });
});

describe('transcribe() input checks (no network)', () => {
  const base = { baseURL: 'http://127.0.0.1:9/v1', model: 'whisper-1', mime: 'audio/wav' };
  it('refuses empty audio and a missing model before any request', async () => {
    await expect(transcribe({ ...base, audio: new Uint8Array(0) })).rejects.toThrow("I didn't catch anything — try again closer to the microphone");
    await expect(transcribe({ ...base, model: ' ', audio: new Uint8Array(4) })).rejects.toThrow('no voice model is set — set the voice model in Settings (whisper-1 for OpenAI)');
  });
});
