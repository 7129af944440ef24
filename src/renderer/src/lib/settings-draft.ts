import type { SettingsPatch, SettingsView } from '../../../protocol/ipc';

// The settings form edits a flat draft; Save sends only what differs from what main has.

export interface SettingsDraft {
  'llm.base_url': string;
  'llm.model': string;
  'llm.mode': 'strict' | 'json_object';
  /** A new key to store; '' leaves the saved one alone. Never filled from main. */
  'llm.api_key': string;
  'chrome.url': string;
  'hotkeys.launcher': string;
  'hotkeys.voice': string;
  'confirm.close_tab': boolean;
  'confirm.close_app': boolean;
  launch_at_login: boolean;
  'voice.enabled': boolean;
  'voice.base_url': string;
  'voice.model': string;
}

export type FieldKey = keyof SettingsDraft;

export const FIELD_KEYS: readonly FieldKey[] = [
  'llm.base_url',
  'llm.model',
  'llm.mode',
  'llm.api_key',
  'chrome.url',
  'hotkeys.launcher',
  'hotkeys.voice',
  'confirm.close_tab',
  'confirm.close_app',
  'launch_at_login',
  'voice.enabled',
  'voice.base_url',
  'voice.model',
];

export function toDraft(v: SettingsView): SettingsDraft {
  return {
    'llm.base_url': v.llm.base_url,
    'llm.model': v.llm.model,
    'llm.mode': v.llm.mode,
    'llm.api_key': '',
    'chrome.url': v.chrome.url,
    'hotkeys.launcher': v.hotkeys.launcher,
    'hotkeys.voice': v.hotkeys.voice,
    'confirm.close_tab': v.confirm.close_tab,
    'confirm.close_app': v.confirm.close_app,
    launch_at_login: v.launch_at_login,
    'voice.enabled': v.voice.enabled,
    'voice.base_url': v.voice.base_url,
    'voice.model': v.voice.model,
  };
}

const changed = (draft: string, saved: string): string | undefined => (draft.trim() !== saved.trim() ? draft.trim() : undefined);
const flipped = (draft: boolean, saved: boolean): boolean | undefined => (draft !== saved ? draft : undefined);

/** Drops undefined members and returns undefined for an object left empty. */
function compact<T extends object>(o: T): T | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as T;
  return Object.keys(out).length ? out : undefined;
}

export function buildPatch(d: SettingsDraft, v: SettingsView): SettingsPatch {
  const apiKey = d['llm.api_key'].trim();
  const patch: SettingsPatch = {
    llm: compact({
      base_url: changed(d['llm.base_url'], v.llm.base_url),
      model: changed(d['llm.model'], v.llm.model),
      mode: d['llm.mode'] !== v.llm.mode ? d['llm.mode'] : undefined,
      api_key: apiKey ? apiKey : undefined,
    }),
    chrome: compact({ url: changed(d['chrome.url'], v.chrome.url) }),
    hotkeys: compact({
      launcher: changed(d['hotkeys.launcher'], v.hotkeys.launcher),
      voice: changed(d['hotkeys.voice'], v.hotkeys.voice),
    }),
    confirm: compact({
      close_tab: flipped(d['confirm.close_tab'], v.confirm.close_tab),
      close_app: flipped(d['confirm.close_app'], v.confirm.close_app),
    }),
    launch_at_login: flipped(d.launch_at_login, v.launch_at_login),
    voice: compact({
      enabled: flipped(d['voice.enabled'], v.voice.enabled),
      base_url: changed(d['voice.base_url'], v.voice.base_url),
      model: changed(d['voice.model'], v.voice.model),
    }),
  };
  return compact(patch) ?? {};
}

export const isEmptyPatch = (p: SettingsPatch): boolean => Object.keys(p).length === 0;
