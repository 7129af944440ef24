import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../protocol/ipc';
import { voiceSetup } from './voice-setup';

const view = (o: { voice?: Partial<SettingsView['voice']>; llmBase?: string } = {}): SettingsView => ({
  llm: { base_url: o.llmBase ?? '', model: '', mode: 'strict', has_api_key: false },
  chrome: { url: '' },
  hotkeys: { launcher: 'Alt+Space', voice: 'Alt+Shift+Space' },
  confirm: { close_tab: true, close_app: true },
  launch_at_login: false,
  voice: { enabled: true, base_url: '', model: 'whisper-1', ...o.voice },
  overridden: [],
});

describe('voice setup', () => {
  it('defaults to OpenAI, which needs a key', () => {
    expect(voiceSetup(view(), null, {})).toEqual({ baseURL: 'https://api.openai.com/v1', apiKey: undefined, model: 'whisper-1', configured: false });
    expect(voiceSetup(view(), 'sk-stored', {}).configured).toBe(true);
    expect(voiceSetup(view(), null, { OPENAI_API_KEY: 'sk-env' }).apiKey).toBe('sk-env');
  });

  it('takes the environment key before the stored one, as the LLM does', () => {
    expect(voiceSetup(view(), 'sk-stored', { DESKPILOT_LLM_API_KEY: 'sk-dp', OPENAI_API_KEY: 'sk-oa' }).apiKey).toBe('sk-dp');
  });

  it("uses the voice base URL, else the LLM's; a self-hosted server needs no key", () => {
    expect(voiceSetup(view({ voice: { base_url: 'http://localhost:8000/v1' } }), null, {})).toMatchObject({ baseURL: 'http://localhost:8000/v1', configured: true });
    expect(voiceSetup(view({ llmBase: 'http://localhost:11434/v1' }), null, {})).toMatchObject({ baseURL: 'http://localhost:11434/v1', configured: true });
  });

  it('is not configured while voice is off', () => {
    expect(voiceSetup(view({ voice: { enabled: false } }), 'sk', {}).configured).toBe(false);
  });
});
