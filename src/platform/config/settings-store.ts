import { withFileLock } from '../storage/file-lock';
import { writeJsonFile } from '../storage/json-file';
import type { SettingKey, SettingsPatch, SettingsView } from '../../protocol/ipc';
import { ConfigFile } from './config-file';
import { DEFAULT_LLM_BASE_URL, readConfigFile } from './load-config';

// The app's settings live in the same config.json the CLI reads, so both agree on the LLM
// and Chrome; secrets never do: the API key goes to a SecretStore (Electron safeStorage).

export interface SecretStore {
  get(key: string): Promise<string | null>;
  /** null deletes. */
  set(key: string, value: string | null): Promise<void>;
}

export const LLM_API_KEY = 'llm.api_key';

export const DEFAULT_HOTKEYS = (platform: NodeJS.Platform) =>
  platform === 'darwin' ? { launcher: 'Alt+Space', voice: 'Alt+Shift+Space' } : { launcher: 'Control+Alt+Space', voice: 'Control+Alt+Shift+Space' };

/**
 * The environment variables that take precedence over a setting (as loadConfig reads them:
 * environment > config file; an empty variable counts as unset). The first one set wins.
 */
export const ENV_OVERRIDES: Readonly<Record<SettingKey, readonly string[]>> = {
  'chrome.url': ['DESKPILOT_CHROME_URL'],
  'llm.base_url': ['DESKPILOT_LLM_BASE_URL'],
  'llm.model': ['DESKPILOT_LLM_MODEL'],
  'llm.api_key': ['DESKPILOT_LLM_API_KEY', 'OPENAI_API_KEY'],
  'llm.mode': ['DESKPILOT_LLM_MODE'],
};

/** The settings an environment variable overrides, so the settings window can say so. */
export function overriddenSettings(env: NodeJS.ProcessEnv): SettingKey[] {
  return (Object.keys(ENV_OVERRIDES) as SettingKey[]).filter((k) => ENV_OVERRIDES[k].some((name) => !!env[name]));
}

export class SettingsStore {
  constructor(
    readonly file: string,
    private readonly secrets: SecretStore,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async view(): Promise<SettingsView> {
    const f = await readConfigFile(this.file);
    const hotkeys = DEFAULT_HOTKEYS(this.platform);
    return {
      llm: {
        base_url: f.llm?.base_url ?? '',
        model: f.llm?.model ?? '',
        mode: f.llm?.mode ?? 'strict',
        has_api_key: (await this.secrets.get(LLM_API_KEY)) !== null,
      },
      chrome: { url: f.chrome?.url ?? '' },
      hotkeys: { launcher: f.ui?.hotkeys?.launcher ?? hotkeys.launcher, voice: f.ui?.hotkeys?.voice ?? hotkeys.voice },
      confirm: { close_tab: f.ui?.confirm?.close_tab ?? true, close_app: f.ui?.confirm?.close_app ?? true },
      launch_at_login: f.ui?.launch_at_login ?? false,
      voice: { enabled: f.voice?.enabled ?? false, base_url: f.voice?.base_url ?? '', model: f.voice?.model ?? 'whisper-1' },
      overridden: overriddenSettings(this.env),
    };
  }

  /** Applies a validated patch; '' clears a text setting. The key goes to the secret store only. */
  apply(patch: SettingsPatch): Promise<SettingsView> {
    return withFileLock(this.file, async () => {
      const f: ConfigFile = structuredClone(await readConfigFile(this.file));
      const set = <T extends object>(obj: T | undefined, key: keyof T & string, value: unknown): T => {
        const o = { ...(obj ?? {}) } as Record<string, unknown>;
        if (value === '' || value === undefined) delete o[key];
        else o[key] = value;
        return o as T;
      };
      if (patch.llm) {
        for (const k of ['base_url', 'model', 'mode'] as const) if (k in patch.llm) f.llm = set(f.llm, k, patch.llm[k]);
        if (patch.llm.api_key !== undefined) await this.secrets.set(LLM_API_KEY, patch.llm.api_key === '' ? null : patch.llm.api_key);
      }
      if (patch.chrome && 'url' in patch.chrome) f.chrome = set(f.chrome, 'url', patch.chrome.url);
      if (patch.hotkeys) f.ui = { ...f.ui, hotkeys: { ...f.ui?.hotkeys, ...patch.hotkeys } };
      if (patch.confirm) f.ui = { ...f.ui, confirm: { ...f.ui?.confirm, ...patch.confirm } };
      if (patch.launch_at_login !== undefined) f.ui = { ...f.ui, launch_at_login: patch.launch_at_login };
      if (patch.voice) for (const k of ['enabled', 'base_url', 'model'] as const) if (k in patch.voice) f.voice = set(f.voice, k, patch.voice[k]);
      await writeJsonFile(this.file, ConfigFile.parse(prune(f)));
      return this.view();
    });
  }

  /** The LLM base URL to use when only a model is set (for status text). */
  static defaultLlmBaseUrl = DEFAULT_LLM_BASE_URL;
}

/** Drops sections left empty, so config.json stays tidy. */
function prune(f: ConfigFile): ConfigFile {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) if (v && typeof v === 'object' && Object.keys(v).length > 0) out[k] = v;
  return out as ConfigFile;
}
