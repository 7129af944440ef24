import type { SettingsView } from '../protocol/ipc';

// Where push-to-talk recordings are transcribed and with which key: the voice settings, else
// the LLM's base URL, else OpenAI; the key from the environment (as for the LLM) or the one
// stored in Settings. A self-hosted server needs no key.

export const OPENAI_V1 = 'https://api.openai.com/v1';

export interface VoiceSetup {
  baseURL: string;
  apiKey: string | undefined;
  model: string;
  configured: boolean;
}

export function voiceSetup(settings: SettingsView, storedKey: string | null, env: NodeJS.ProcessEnv): VoiceSetup {
  const baseURL = settings.voice.base_url || settings.llm.base_url || OPENAI_V1;
  const apiKey = env.DESKPILOT_LLM_API_KEY || env.OPENAI_API_KEY || storedKey || undefined;
  return {
    baseURL,
    apiKey,
    model: settings.voice.model || 'whisper-1',
    configured: settings.voice.enabled && (apiKey !== undefined || !isOpenAi(baseURL)),
  };
}

function isOpenAi(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname.toLowerCase() === 'api.openai.com';
  } catch {
    return false;
  }
}
