import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { defaultConfigDir } from './config-dir';
import { ConfigFile } from './config-file';

// Precedence: flags > environment > config file > defaults. Each value remembers where it
// came from so `deskpilot chrome status` can say why it connects where it does.

export interface ConfigFlags {
  configDir?: string;
  chromeUrl?: string;
  allowRemoteChrome?: boolean;
}

export type Origin = 'flag' | 'env' | 'file' | 'default';
export interface Setting<T> {
  value: T;
  from: Origin;
}

export interface Config {
  configDir: Setting<string>;
  configFile: string;
  chromeUrl: Setting<string | undefined>;
  allowRemoteChrome: Setting<boolean>;
  chromePath: Setting<string | undefined>;
  /** Where DeskPilot's own Chrome profile lives (`deskpilot chrome launch`). */
  chromeProfileDir: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const pick = <T>(...layers: Array<[T | undefined, Origin]>): Setting<T | undefined> => {
  for (const [value, from] of layers) if (value !== undefined) return { value, from };
  return { value: undefined, from: 'default' };
};

const envFlag = (v: string | undefined): boolean | undefined =>
  v === undefined || v === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

export async function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const dir = pick<string>([flags.configDir, 'flag'], [env.DESKPILOT_CONFIG_DIR || undefined, 'env']);
  const configDir: Setting<string> = dir.value ? { value: path.resolve(dir.value), from: dir.from } : { value: defaultConfigDir(env), from: 'default' };
  const configFile = path.join(configDir.value, 'config.json');
  const file = await readConfigFile(configFile);

  const allow = pick<boolean>(
    [flags.allowRemoteChrome, 'flag'],
    [envFlag(env.DESKPILOT_ALLOW_REMOTE_CHROME), 'env'],
    [file.chrome?.allow_remote, 'file'],
  );
  return {
    configDir,
    configFile,
    chromeUrl: pick([flags.chromeUrl, 'flag'], [env.DESKPILOT_CHROME_URL || undefined, 'env'], [file.chrome?.url, 'file']),
    allowRemoteChrome: { value: allow.value ?? false, from: allow.from },
    chromePath: pick([env.DESKPILOT_CHROME_PATH || undefined, 'env'], [file.chrome?.path, 'file']),
    chromeProfileDir: path.join(configDir.value, 'chrome-profile'),
  };
}

async function readConfigFile(file: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`${file}: cannot be read (${(e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file}: is not valid JSON (${(e as Error).message})`);
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const details = zodErrors(parsed.error, json).map(formatFieldError).join('; ');
    throw new ConfigError(`${file}: ${details}`);
  }
  return parsed.data;
}
