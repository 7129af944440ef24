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
      new ConfigError(`${path.join(dir, 'config.json')}: chrome.url: Invalid input: expected string, received number`),
    );
    writeConfig({ chrome_url: 'x' });
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(/config\.json: chrome_url: unknown field$/);
    writeConfig('{ not json');
    await expect(loadConfig({}, { DESKPILOT_CONFIG_DIR: dir })).rejects.toThrow(/config\.json: is not valid JSON/);
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
