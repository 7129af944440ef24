import path from 'node:path';
import { agentConfig, type AgentConfig } from './agent-config';
import { syncConfig, type SyncConfig } from './sync-config';
import { dataDirs, defaultConfigDir, type DataDirs } from './config-dir';
import { prepareStatePaths, type StatePaths } from './state-paths';
import { keepPrivate } from '../storage/private-files';
import { ConfigFile, WINDOWS_BACKENDS, WINDOWS_BACKEND_RULE, type WindowsBackendSetting } from './config-file';
import { DEFAULT_LLM_TIMEOUT_MS, LLM_TIMEOUT_RULE, parseTimeoutMs } from './llm-timeout';
import { echo } from '../../protocol/echo';
import { readJsonFile } from '../storage/json-file';
import { StateFileError } from '../storage/state-file';

// Precedence: flags > environment > config file > defaults. Each value remembers where it
// came from so `deskpilot chrome status` can say why it connects where it does.

export type { ConfigFlags, LlmConfig, Origin, Setting } from './setting';
import type { ConfigFlags, LlmConfig, Origin, Setting } from './setting';

export interface Config {
  configDir: Setting<string>;
  configFile: string;
  /** The config, state and cache folders (config-dir.ts says which file goes where). */
  dirs: DataDirs;
  /** Each state file's path: in the state folder, or where it was when it could not be moved there. */
  state: StatePaths;
  chromeUrl: Setting<string | undefined>;
  allowRemoteChrome: Setting<boolean>;
  chromePath: Setting<string | undefined>;
  /** Where DeskPilot's own Chrome profile lives (`deskpilot chrome launch`). */
  chromeProfileDir: string;
  /** null when no model is configured: the offline matcher is then the only planner. */
  llm: LlmConfig | null;
  /** Agent mode; its models default to the LLM's. */
  agent: AgentConfig;
  /** null when no sync server is configured: this desk is on its own. */
  sync: SyncConfig | null;
  /** windows.backend: which window backend ("auto": from the session). */
  windowsBackend: Setting<WindowsBackendSetting>;
}

export const DEFAULT_LLM_BASE_URL = 'https://api.openai.com/v1';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const pick = <T>(...layers: Array<[T | undefined, Origin]>): Setting<T | undefined> => {
  for (const [value, from] of layers) if (value !== undefined) return { value, from };
  return { value: undefined, from: 'default' };
};

const envFlag = (v: string | undefined): boolean | undefined =>
  v === undefined || v === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

const stderrWarn = (message: string) => void process.stderr.write(`deskpilot: ${message}\n`);

export async function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env, warn: (message: string) => void = stderrWarn): Promise<Config> {
  const dir = pick<string>([flags.configDir, 'flag'], [env.DESKPILOT_CONFIG_DIR || undefined, 'env']);
  const configDir: Setting<string> = dir.value ? { value: path.resolve(dir.value), from: dir.from } : { value: defaultConfigDir(env), from: 'default' };
  const configFile = path.join(configDir.value, 'config.json');
  const file = await readConfigFile(configFile);
  const dirs = dataDirs({ dir: configDir.value, chosen: configDir.from !== 'default' }, env);
  const state = await prepareStatePaths(dirs, warn);
  for (const problem of await keepPrivate([dirs.config, dirs.state, dirs.cache])) warn(`could not be made private (readable by you only): ${problem}`);

  const allow = pick<boolean>(
    [flags.allowRemoteChrome, 'flag'],
    [envFlag(env.DESKPILOT_ALLOW_REMOTE_CHROME), 'env'],
    [file.chrome?.allow_remote, 'file'],
  );
  const llm = llmConfig(env, file);
  return {
    configDir,
    configFile,
    dirs,
    state,
    chromeUrl: pick([flags.chromeUrl, 'flag'], [env.DESKPILOT_CHROME_URL || undefined, 'env'], [file.chrome?.url, 'file']),
    allowRemoteChrome: { value: allow.value ?? false, from: allow.from },
    chromePath: pick([env.DESKPILOT_CHROME_PATH || undefined, 'env'], [file.chrome?.path, 'file']),
    chromeProfileDir: state.chromeProfile,
    llm,
    agent: agentConfig(env, file.agent, llm, (message) => {
      throw new ConfigError(message);
    }),
    sync: syncConfig(flags, env, file, (message) => {
      throw new ConfigError(message);
    }),
    windowsBackend: windowsBackend(env, file),
  };
}

function windowsBackend(env: NodeJS.ProcessEnv, file: ConfigFile): Setting<WindowsBackendSetting> {
  const v = env.DESKPILOT_WINDOWS_BACKEND;
  if (v !== undefined && v !== '') {
    if (!(WINDOWS_BACKENDS as readonly string[]).includes(v)) throw new ConfigError(`DESKPILOT_WINDOWS_BACKEND: ${WINDOWS_BACKEND_RULE}, not "${echo(v)}"`);
    return { value: v as WindowsBackendSetting, from: 'env' };
  }
  return file.windows?.backend ? { value: file.windows.backend, from: 'file' } : { value: 'auto', from: 'default' };
}

function llmConfig(env: NodeJS.ProcessEnv, file: ConfigFile): LlmConfig | null {
  const model = pick<string>([env.DESKPILOT_LLM_MODEL || undefined, 'env'], [file.llm?.model, 'file']);
  if (model.value === undefined) return null;
  const baseURL = pick<string>([env.DESKPILOT_LLM_BASE_URL || undefined, 'env'], [file.llm?.base_url, 'file']);
  const mode = pick<'strict' | 'json_object'>([parseMode(env.DESKPILOT_LLM_MODE), 'env'], [file.llm?.mode, 'file']);
  const timeout = pick<number>([envTimeoutMs(env.DESKPILOT_LLM_TIMEOUT_MS), 'env'], [file.llm?.timeout_ms, 'file']);
  return {
    model: { value: model.value, from: model.from },
    baseURL: { value: baseURL.value ?? DEFAULT_LLM_BASE_URL, from: baseURL.from },
    apiKey: pick([env.DESKPILOT_LLM_API_KEY || undefined, 'env'], [env.OPENAI_API_KEY || undefined, 'env'], [file.llm?.api_key, 'file']),
    mode: { value: mode.value ?? 'strict', from: mode.from },
    timeoutMs: { value: timeout.value ?? DEFAULT_LLM_TIMEOUT_MS, from: timeout.from },
  };
}

function parseMode(v: string | undefined): 'strict' | 'json_object' | undefined {
  if (v === undefined || v === '') return undefined;
  if (v === 'strict' || v === 'json_object') return v;
  throw new ConfigError(`DESKPILOT_LLM_MODE: must be "strict" or "json_object", not "${echo(v)}"`);
}

function envTimeoutMs(v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const ms = parseTimeoutMs(v);
  if (ms !== null) return ms;
  throw new ConfigError(`DESKPILOT_LLM_TIMEOUT_MS: ${LLM_TIMEOUT_RULE} (default ${DEFAULT_LLM_TIMEOUT_MS}), not "${echo(v)}"`);
}

export async function readConfigFile(file: string): Promise<ConfigFile> {
  try {
    return await readJsonFile(file, ConfigFile, {});
  } catch (e) {
    throw e instanceof StateFileError ? new ConfigError(e.message) : e;
  }
}
