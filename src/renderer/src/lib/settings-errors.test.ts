import { describe, expect, it } from 'vitest';
import { mapFieldErrors, sentence } from './settings-errors';

describe('mapFieldErrors', () => {
  it('puts an error on its form field, whether main named it from the patch or the settings', () => {
    const m = mapFieldErrors([
      { path: 'patch.llm.base_url', message: 'must be a URL such as http://localhost:11434/v1' },
      { path: 'hotkeys.launcher', message: 'is used by another app' },
    ]);
    expect(m.fields).toEqual({ 'llm.base_url': 'Must be a URL such as http://localhost:11434/v1', 'hotkeys.launcher': 'Is used by another app' });
    expect(m.general).toEqual([]);
  });

  it('joins two errors of one field', () => {
    const m = mapFieldErrors([
      { path: 'llm.model', message: 'must not be empty' },
      { path: 'llm.model', message: 'must be at most 200 characters' },
    ]);
    expect(m.fields['llm.model']).toBe('Must not be empty; must be at most 200 characters');
  });

  it('what matches no field goes above the Save button, with its path when it has one', () => {
    const m = mapFieldErrors([
      { path: 'patch', message: 'must change something' },
      { path: 'sync.url', message: 'is not a setting here' },
      { path: '', message: 'the settings file is locked' },
    ]);
    expect(m.fields).toEqual({});
    expect(m.general).toEqual(['Must change something', 'sync.url: is not a setting here', 'The settings file is locked']);
  });
});

describe('sentence', () => {
  it('capitalises the first letter only, and leaves an empty message empty', () => {
    expect(sentence('must be a URL')).toBe('Must be a URL');
    expect(sentence('')).toBe('');
  });
});
