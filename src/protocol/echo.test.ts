import { describe, expect, it } from 'vitest';
import { IPC } from './ipc';
import { PresetFile } from './preset';
import { echo } from './echo';
import { formatFieldError, zodErrors } from './validation';

describe('echo: input quoted in errors is bounded', () => {
  it('keeps short text, cuts long text to 80 characters with an ellipsis and the length', () => {
    expect(echo('Google Chrome')).toBe('Google Chrome');
    expect(echo('x'.repeat(80))).toBe('x'.repeat(80));
    expect(echo('x'.repeat(81))).toBe(`${'x'.repeat(80)}… (81 characters)`);
    expect(echo('abcdef', 3)).toBe('abc… (6 characters)');
  });

  it('never cuts an emoji in half', () => {
    const text = `${'a'.repeat(79)}😀${'b'.repeat(10)}`;
    expect(echo(text)).toBe(`${'a'.repeat(79)}… (91 characters)`);
  });
});

describe('free-text fields of the protocol have caps', () => {
  const errorsOf = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
    const r = schema.safeParse(value);
    return r.success ? [] : zodErrors(r.error as Parameters<typeof zodErrors>[0], value).map(formatFieldError);
  };
  const long = 'x'.repeat(1_000_000);

  it('settings: URLs at 8192 characters', () => {
    const patch = IPC['settings:set'].request;
    expect(errorsOf(patch, { patch: { llm: { base_url: `http://${long}` } } })).toEqual(['patch.llm.base_url: must be at most 8192 characters']);
    expect(errorsOf(patch, { patch: { voice: { base_url: `http://${long}` } } })).toEqual(['patch.voice.base_url: must be at most 8192 characters']);
    expect(errorsOf(patch, { patch: { chrome: { url: `ws://${long}` } } })).toEqual(['patch.chrome.url: must be at most 8192 characters']);
    expect(errorsOf(patch, { patch: { chrome: { url: 'ws://127.0.0.1:9222' } } })).toEqual([]);
  });

  it('voice: the audio MIME type at 200 characters', () => {
    const req = IPC['voice:transcribe'].request;
    expect(errorsOf(req, { audio: new Uint8Array([1]), mime: `audio/webm;${long}` })).toEqual(['mime: must be at most 200 characters']);
    expect(errorsOf(req, { audio: new Uint8Array([1]), mime: 'audio/webm;codecs=opus' })).toEqual([]);
  });

  it('presets: a monitor name at 256 characters, and a duplicate name quoted short', () => {
    const placement = { app: 'XTerm', monitor: long, rect: [0, 0, 1, 1] };
    expect(errorsOf(PresetFile, { version: 1, presets: [{ name: 'a', placements: [placement] }] })).toEqual([
      expect.stringMatching(/^presets\[0\]\.placements\[0\]\.monitor: /),
    ]);
    const name = 'n'.repeat(200);
    expect(errorsOf(PresetFile, { version: 1, presets: [{ name, placements: [] }, { name, placements: [] }] })).toEqual([
      `presets[1].name: duplicate preset name "${'n'.repeat(80)}… (200 characters)"`,
    ]);
  });
});
