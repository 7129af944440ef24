import os from 'node:os';
import { echo } from '../../protocol/echo';
import { COMMAND_TTL_MS } from '../../protocol/sync-ttl';
import type { ConfigFile } from './config-file';
import type { ConfigFlags, Setting } from './setting';

// sync.url, sync.device_name and sync.allow_insecure, with the same precedence as every
// setting: flag > env > file. A ws:// URL to another host is refused when connecting unless
// allowed (sync-connection.ts): it is read here so that a config with one still loads.

export interface SyncConfig {
  url: Setting<string>;
  deviceName: Setting<string>;
  /** The command TTL; DESKPILOT_SYNC_TTL_MS changes it for tests only (every device must agree on it). */
  ttlMs: number;
  /** Whether a ws:// URL to a host other than this computer may be used (sync.allow_insecure, DESKPILOT_SYNC_ALLOW_INSECURE). */
  allowInsecure: boolean;
}

const URL_RULE = 'must be a ws:// or wss:// URL such as wss://sync.example.org';
const NAME_RULE = 'must be 1 to 60 characters';

/** `fail` throws the configuration's own error type (bad settings are the user's input, exit 2). */
export function syncConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv, file: ConfigFile, fail: (message: string) => never): SyncConfig | null {
  const checkUrl = (what: string, v: string): string => {
    const s = v.trim();
    return /^wss?:\/\/\S+$/.test(s) ? s : fail(`${what}: ${URL_RULE}, not "${echo(v)}"`);
  };
  const url: Setting<string> | null = flags.syncUrl
    ? { value: checkUrl('--sync-url', flags.syncUrl), from: 'flag' }
    : env.DESKPILOT_SYNC_URL
      ? { value: checkUrl('DESKPILOT_SYNC_URL', env.DESKPILOT_SYNC_URL), from: 'env' }
      : file.sync?.url
        ? { value: file.sync.url, from: 'file' }
        : null;
  if (!url) return null;
  const envName = env.DESKPILOT_SYNC_DEVICE_NAME?.trim();
  if (envName !== undefined && env.DESKPILOT_SYNC_DEVICE_NAME !== '' && (envName.length < 1 || envName.length > 60)) {
    fail(`DESKPILOT_SYNC_DEVICE_NAME: ${NAME_RULE}`);
  }
  const deviceName: Setting<string> = envName
    ? { value: envName, from: 'env' }
    : file.sync?.device_name
      ? { value: file.sync.device_name, from: 'file' }
      : { value: os.hostname().slice(0, 60) || 'this computer', from: 'default' };
  const ttl = env.DESKPILOT_SYNC_TTL_MS;
  let ttlMs = COMMAND_TTL_MS;
  if (ttl !== undefined && ttl !== '') {
    ttlMs = Number(ttl);
    if (!Number.isInteger(ttlMs) || ttlMs < 1000 || ttlMs > 600_000) fail(`DESKPILOT_SYNC_TTL_MS: must be a whole number of ms from 1000 to 600000, not "${echo(ttl)}"`);
  }
  const envInsecure = env.DESKPILOT_SYNC_ALLOW_INSECURE;
  const allowInsecure = envInsecure !== undefined && envInsecure !== '' ? ['1', 'true', 'yes', 'on'].includes(envInsecure.toLowerCase()) : file.sync?.allow_insecure === true;
  return { url, deviceName, ttlMs, allowInsecure };
}
