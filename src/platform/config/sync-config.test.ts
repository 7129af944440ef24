import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMAND_TTL_MS } from '../../protocol/sync';
import { ConfigError, loadConfig } from './load-config';

describe('sync settings', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const dirWith = (config?: unknown) => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-synccfg-'));
    dirs.push(d);
    if (config !== undefined) writeFileSync(path.join(d, 'config.json'), JSON.stringify(config));
    return d;
  };

  it('are off without a URL; flag > env > file like every setting, the name defaulting to the host name', async () => {
    expect((await loadConfig({ configDir: dirWith() }, {})).sync).toBeNull();
    const configDir = dirWith({ sync: { url: 'wss://file.example.org', device_name: 'from file' } });
    const fromFile = (await loadConfig({ configDir }, {})).sync!;
    expect([fromFile.url, fromFile.deviceName, fromFile.ttlMs]).toEqual([{ value: 'wss://file.example.org', from: 'file' }, { value: 'from file', from: 'file' }, COMMAND_TTL_MS]);
    const fromEnv = (await loadConfig({ configDir }, { DESKPILOT_SYNC_URL: 'ws://env:1', DESKPILOT_SYNC_DEVICE_NAME: 'env name' })).sync!;
    expect([fromEnv.url.from, fromEnv.deviceName.value]).toEqual(['env', 'env name']);
    expect((await loadConfig({ configDir, syncUrl: 'ws://flag:2' }, { DESKPILOT_SYNC_URL: 'ws://env:1' })).sync!.url).toEqual({ value: 'ws://flag:2', from: 'flag' });
    expect((await loadConfig({ configDir: dirWith({ sync: { url: 'ws://x:1' } }) }, {})).sync!.deviceName).toEqual({ value: os.hostname().slice(0, 60), from: 'default' });
  });

  it('a bad URL, name or TTL is refused naming where it came from', async () => {
    await expect(loadConfig({ configDir: dirWith({ sync: { url: 'https://nope' } }) }, {})).rejects.toThrow('sync.url: must be a ws:// or wss:// URL');
    await expect(loadConfig({ configDir: dirWith(), syncUrl: 'sync.example.org' }, {})).rejects.toThrow(ConfigError);
    await expect(loadConfig({ configDir: dirWith() }, { DESKPILOT_SYNC_URL: 'ftp://x' })).rejects.toThrow('DESKPILOT_SYNC_URL: must be a ws:// or wss:// URL');
    await expect(loadConfig({ configDir: dirWith({ sync: { url: 'ws://x:1', device_name: '' } }) }, {})).rejects.toThrow('sync.device_name: must not be empty');
    await expect(loadConfig({ configDir: dirWith({ sync: { url: 'ws://x:1' } }) }, { DESKPILOT_SYNC_TTL_MS: '10' })).rejects.toThrow('DESKPILOT_SYNC_TTL_MS: must be a whole number of ms from 1000 to 600000');
  });

  it('allow ws:// to another host only when said (sync.allow_insecure or DESKPILOT_SYNC_ALLOW_INSECURE); a ws:// config still loads', async () => {
    const configDir = dirWith({ sync: { url: 'ws://sync.lan:8766' } });
    expect((await loadConfig({ configDir }, {})).sync!.allowInsecure).toBe(false);
    expect((await loadConfig({ configDir }, { DESKPILOT_SYNC_ALLOW_INSECURE: '1' })).sync!.allowInsecure).toBe(true);
    expect((await loadConfig({ configDir: dirWith({ sync: { url: 'ws://sync.lan:8766', allow_insecure: true } }) }, {})).sync!.allowInsecure).toBe(true);
    await expect(loadConfig({ configDir: dirWith({ sync: { url: 'ws://x:1', allow_insecure: 'yes' } }) }, {})).rejects.toThrow('sync.allow_insecure: must be true or false');
  });
});
