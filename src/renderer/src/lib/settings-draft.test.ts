import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../protocol/ipc';
import { buildPatch, isEmptyPatch, toDraft } from './settings-draft';

const saved: SettingsView = {
  llm: { base_url: 'http://localhost:11434/v1', model: 'llama3', mode: 'strict', has_api_key: true },
  chrome: { url: '' },
  hotkeys: { launcher: 'CommandOrControl+Shift+Space', voice: 'CommandOrControl+Shift+V' },
  confirm: { close_tab: true, close_app: true },
  launch_at_login: false,
  voice: { enabled: false, base_url: '', model: 'whisper-1' },
  overridden: [],
};

describe('toDraft / buildPatch', () => {
  it('a draft nobody edited sends nothing, and the stored API key is never put in the form', () => {
    const draft = toDraft(saved);
    expect(draft['llm.api_key']).toBe('');
    const patch = buildPatch(draft, saved);
    expect(patch).toEqual({});
    expect(isEmptyPatch(patch)).toBe(true);
  });

  it('sends only the fields that differ, trimmed, grouped as main stores them', () => {
    const draft = { ...toDraft(saved), 'llm.model': '  qwen2.5 ', 'confirm.close_app': false, 'voice.enabled': true };
    expect(buildPatch(draft, saved)).toEqual({ llm: { model: 'qwen2.5' }, confirm: { close_app: false }, voice: { enabled: true } });
  });

  it('a field changed only by surrounding spaces is not a change', () => {
    const draft = { ...toDraft(saved), 'llm.base_url': ' http://localhost:11434/v1 ' };
    expect(isEmptyPatch(buildPatch(draft, saved))).toBe(true);
  });

  it('a new API key is sent; an empty key field leaves the stored key alone', () => {
    expect(buildPatch({ ...toDraft(saved), 'llm.api_key': ' sk-new ' }, saved)).toEqual({ llm: { api_key: 'sk-new' } });
    expect(buildPatch({ ...toDraft(saved), 'llm.api_key': '   ' }, saved)).toEqual({});
  });

  it('launch at login is a top-level flag', () => {
    expect(buildPatch({ ...toDraft(saved), launch_at_login: true }, saved)).toEqual({ launch_at_login: true });
  });
});
