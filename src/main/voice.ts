import type { AppServiceDeps } from '../app/app-service';
import { LLM_API_KEY, type SecretStore } from '../platform/config/settings-store';
import { transcribe } from '../platform/voice/transcribe';
import { voiceSetup } from './voice-setup';

// AppService's voice dependencies: transcription through the configured server (voice-setup.ts).

export function voiceDeps(secrets: SecretStore, env: NodeJS.ProcessEnv = process.env): Pick<AppServiceDeps, 'transcribe' | 'voiceConfigured'> {
  return {
    transcribe: async (audio, mime, settings) => {
      if (!settings.voice.enabled) throw new Error('Voice input is off; turn it on in Settings.');
      const v = voiceSetup(settings, await secrets.get(LLM_API_KEY), env);
      return transcribe({ baseURL: v.baseURL, apiKey: v.apiKey, model: v.model, audio, mime });
    },
    voiceConfigured: async (settings) => voiceSetup(settings, await secrets.get(LLM_API_KEY), env).configured,
  };
}
