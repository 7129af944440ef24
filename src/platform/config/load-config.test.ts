import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfigDir } from './config-dir';
import { ConfigError, loadConfig } from './load-config';

describe('loadConfig (real files in a temp dir)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const writeConfig = (json: unknown) => writeFileSync(path.join(dir, 'config.json'), typeof json === 'string' ? json : JSON.stringify(json));

  it('uses defaults when there is no config file', async () => {
    const c = await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir });
    expect(c.configDir).toEqual({ value: dir, from: 'env' });
    expect(c.chromeUrl).toEqual({ value: undefined, from: 'default' });
    expect(c.allowRemoteChrome).toEqual({ value: false, from: 'default' });
    expect(c.chromeProfileDir).toBe(path.join(dir, 'chrome-profile'));
  });

  it('applies flags over environment over file', async () => {
    writeConfig({ chrome: { url: 'http://127.0.0.1:1111', allow_remote: true, path: '/opt/chrome' } });
    const fromFile = await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir });
    expect(fromFile.chromeUrl).toEqual({ value: 'http://127.0.0.1:1111', from: 'file' });
    expect(fromFile.allowRemoteChrome).toEqual({ value: true, from: 'file' });
    expect(fromFile.chromePath).toEqual({ value: '/opt/chrome', from: 'file' });

    const env = { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_CHROME_URL: 'http://127.0.0.1:2222', DESKPILOT_ALLOW_REMOTE_CHROME: '0' };
    const fromEnv = await loadConfig({}, env);
    expect(fromEnv.chromeUrl).toEqual({ value: 'http://127.0.0.1:2222', from: 'env' });
    expect(fromEnv.allowRemoteChrome).toEqual({ value: false, from: 'env' });

    const fromFlag = await loadConfig({ chromeUrl: 'ws://127.0.0.1:3333/devtools/browser/x', allowRemoteChrome: true }, env);
    expect(fromFlag.chromeUrl).toEqual({ value: 'ws://127.0.0.1:3333/devtools/browser/x', from: 'flag' });
    expect(fromFlag.allowRemoteChrome).toEqual({ value: true, from: 'flag' });
  });

  it('the --config-dir flag beats DESKPILOT_CONFIG_DIR', async () => {
    const c = await loadConfig({ configDir: dir }, { DESKPILOT_CONFIG_DIR: '/nonexistent' });
    expect(c.configDir).toEqual({ value: dir, from: 'flag' });
  });

  it('names the bad field of a broken config file', async () => {
    writeConfig({ chrome: { url: 42 } });
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(
      new ConfigError(`${path.join(dir, 'config.json')}: chrome.url: must be a string`),
    );
    writeConfig({ chrome_url: 'x' });
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(/config\.json: chrome_url: unknown field$/);
    writeConfig('{ not json');
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(/config\.json: is not valid JSON/);
  });
});

describe('LLM settings', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-llm-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is off without a model; a model alone means OpenAI, with OPENAI_API_KEY as the fallback key', async () => {
    expect((await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, OPENAI_API_KEY: 'sk-x' })).llm).toBeNull();
    const c = (await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_LLM_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-x' })).llm!;
    expect([c.baseURL.value, c.model.value, c.apiKey.value, c.mode.value, c.timeoutMs.value]).toEqual([
      'https://api.openai.com/v1', 'gpt-4o-mini', 'sk-x', 'strict', 30000,
    ]);
  });

  it('takes Ollama-style settings from the file, DESKPILOT_LLM_API_KEY over OPENAI_API_KEY, env over file', async () => {
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ llm: { base_url: 'http://localhost:11434/v1', model: 'qwen2.5:7b', mode: 'json_object' } }));
    const c = (await loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_LLM_API_KEY: 'a', OPENAI_API_KEY: 'b', DESKPILOT_LLM_MODEL: 'llama3.1' })).llm!;
    expect([c.baseURL, c.model, c.apiKey.value, c.mode.value]).toEqual([
      { value: 'http://localhost:11434/v1', from: 'file' }, { value: 'llama3.1', from: 'env' }, 'a', 'json_object',
    ]);
  });

  it('names bad LLM settings', async () => {
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir, DESKPILOT_LLM_MODEL: 'm', DESKPILOT_LLM_MODE: 'loose' })).rejects.toThrow(
      'DESKPILOT_LLM_MODE: must be "strict" or "json_object", not "loose"',
    );
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ llm: { base_url: 'localhost' } }));
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(/llm\.base_url: must be a URL such as/);
  });
});

describe('defaultConfigDir', () => {
  it('follows each platform convention', () => {
    expect(defaultConfigDir({}, 'linux', '/home/a')).toBe('/home/a/.config/deskpilot');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/a')).toBe('/x/deskpilot');
    expect(defaultConfigDir({}, 'darwin', '/Users/a')).toBe('/Users/a/Library/Application Support/DeskPilot');
    expect(defaultConfigDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32', 'C:\\Users\\a')).toMatch(/DeskPilot$/);
  });
});
