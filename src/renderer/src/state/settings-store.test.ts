import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RendererApi, SettingsView } from '../../../protocol/ipc';
import { useSettingsStore } from './settings-store';

// The settings form's store against a fake of the preload bridge (window.api): Electron's IPC
// does not exist in a unit test. settingsSet answers what the test hands it.

const saved: SettingsView = {
  llm: { base_url: '', model: 'gpt-4o-mini', mode: 'strict', has_api_key: false },
  chrome: { url: '' },
  hotkeys: { launcher: 'CommandOrControl+Shift+Space', voice: 'CommandOrControl+Shift+V' },
  confirm: { close_tab: true, close_app: true },
  launch_at_login: false,
  voice: { enabled: false, base_url: '', model: 'whisper-1' },
  overridden: [],
};

let sent: unknown[];
let answerSet: (patch: unknown) => Promise<unknown>;

beforeEach(async () => {
  sent = [];
  const api = {
    settingsGet: async () => ({ ok: true, value: saved }),
    settingsSet: async (req: { patch: unknown }) => {
      sent.push(req.patch);
      return answerSet(req.patch);
    },
  };
  vi.stubGlobal('window', { api: api as unknown as RendererApi });
  useSettingsStore.setState({ saved: null, draft: null, loadError: null, save: 'idle', errors: { fields: {}, general: [] } });
  await useSettingsStore.getState().load();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('settings store (fake bridge)', () => {
  it('saving an unchanged form sends nothing and says saved', async () => {
    await useSettingsStore.getState().submit();
    expect(sent).toEqual([]);
    expect(useSettingsStore.getState().save).toBe('saved');
  });

  it('sends only what changed, and shows what main stored', async () => {
    answerSet = async () => ({ ok: true, value: { ok: true, settings: { ...saved, llm: { ...saved.llm, model: 'llama3' } } } });
    useSettingsStore.getState().setField('llm.model', ' llama3 ');
    await useSettingsStore.getState().submit();
    expect(sent).toEqual([{ llm: { model: 'llama3' } }]);
    expect(useSettingsStore.getState().save).toBe('saved');
    expect(useSettingsStore.getState().draft?.['llm.model']).toBe('llama3');
  });

  it('a field edited while saving keeps its new text', async () => {
    let answer!: (v: unknown) => void;
    answerSet = () => new Promise((r) => (answer = r));
    useSettingsStore.getState().setField('llm.model', 'llama3');
    const saving = useSettingsStore.getState().submit();
    useSettingsStore.getState().setField('chrome.url', 'http://127.0.0.1:9222');
    answer({ ok: true, value: { ok: true, settings: { ...saved, llm: { ...saved.llm, model: 'llama3' } } } });
    await saving;
    expect(useSettingsStore.getState().draft?.['chrome.url']).toBe('http://127.0.0.1:9222');
  });

  it("main's field errors land on their fields and say failed; editing a field clears its error", async () => {
    answerSet = async () => ({ ok: true, value: { ok: false, errors: [{ path: 'hotkeys.launcher', message: 'is used by another app' }] } });
    useSettingsStore.getState().setField('hotkeys.launcher', 'Alt+Space');
    await useSettingsStore.getState().submit();
    expect(useSettingsStore.getState().save).toBe('failed');
    expect(useSettingsStore.getState().errors.fields['hotkeys.launcher']).toBe('Is used by another app');
    useSettingsStore.getState().setField('hotkeys.launcher', 'Alt+Shift+Space');
    expect(useSettingsStore.getState().errors.fields['hotkeys.launcher']).toBeUndefined();
  });

  it('revert puts back what main has', () => {
    useSettingsStore.getState().setField('voice.enabled', true);
    useSettingsStore.getState().revert();
    expect(useSettingsStore.getState().draft?.['voice.enabled']).toBe(false);
  });
});
