import type { SettingKey } from '../../../protocol/ipc';
import type { FieldKey } from './settings-draft';

// Which environment variable overrides a setting (main lists the overridden ones in
// SettingsView.overridden), and the note shown under its field.

const ENV_NAMES: Record<SettingKey, string> = {
  'chrome.url': 'DESKPILOT_CHROME_URL',
  'llm.base_url': 'DESKPILOT_LLM_BASE_URL',
  'llm.model': 'DESKPILOT_LLM_MODEL',
  'llm.api_key': 'DESKPILOT_LLM_API_KEY or OPENAI_API_KEY',
  'llm.mode': 'DESKPILOT_LLM_MODE',
};

const isSettingKey = (k: FieldKey): k is SettingKey => k in ENV_NAMES;

/** The note for a field the environment overrides, else null. */
export function envOverrideNote(field: FieldKey, overridden: readonly string[] | undefined): string | null {
  if (!isSettingKey(field) || !overridden?.includes(field)) return null;
  return field === 'llm.api_key'
    ? `Set by ${ENV_NAMES[field]} in the environment; that key is used, not one saved here.`
    : `Set by ${ENV_NAMES[field]} in the environment; that value is used.`;
}
