import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LLM_API_KEY, SettingsStore, type SecretStore } from './settings-store';

// Real config.json files; the secret store is an in-memory stand-in (Electron's safeStorage
// does not exist outside the app).
const memorySecrets = (): SecretStore & { values: Map<string, string> } => {
  const values = new Map<string, string>();
  return {
    values,
    get: async (k) => values.get(k) ?? null,
    set: async (k, v) => void (v === null ? values.delete(k) : values.set(k, v)),
  };
};

describe('SettingsStore (real files, in-memory secret store)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-settings-'));
    file = path.join(dir, 'config.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('shows defaults, writes a patch into the shared config.json and keeps the key out of it', async () => {
    const secrets = memorySecrets();
    const store = new SettingsStore(file, secrets, 'linux', {});
    const before = await store.view();
    expect(before.hotkeys).toEqual({ launcher: 'Control+Alt+Space', voice: 'Control+Alt+Shift+Space' });
    expect(before.confirm).toEqual({ close_tab: true, close_app: true });
    writeFileSync(file, JSON.stringify({ chrome: { url: 'http://127.0.0.1:9222' } }));
    const after = await store.apply({ llm: { base_url: 'http://localhost:11434/v1', model: 'qwen2.5:7b', api_key: 'sk-secret' }, confirm: { close_tab: false } });
    expect(after.llm).toEqual({ base_url: 'http://localhost:11434/v1', model: 'qwen2.5:7b', mode: 'strict', has_api_key: true });
    const onDisk = readFileSync(file, 'utf8');
    expect(JSON.parse(onDisk)).toEqual({
      chrome: { url: 'http://127.0.0.1:9222' },
      llm: { base_url: 'http://localhost:11434/v1', model: 'qwen2.5:7b' },
      ui: { confirm: { close_tab: false } },
    });
    expect(onDisk).not.toContain('sk-secret');
    expect(secrets.values.get(LLM_API_KEY)).toBe('sk-secret');
    const cleared = await store.apply({ llm: { model: '', api_key: '' }, chrome: { url: '' } });
    expect(cleared.llm.has_api_key).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ llm: { base_url: 'http://localhost:11434/v1' }, ui: { confirm: { close_tab: false } } });
  });

  it('says which settings the environment overrides (an empty variable does not count)', async () => {
    const store = new SettingsStore(file, memorySecrets(), 'darwin', { DESKPILOT_CHROME_URL: 'ws://x', DESKPILOT_LLM_MODEL: '', OPENAI_API_KEY: 'sk' });
    const view = await store.view();
    expect([...view.overridden].sort()).toEqual(['chrome.url', 'llm.api_key']);
    expect(view.hotkeys.launcher).toBe('Alt+Space');
  });
});
