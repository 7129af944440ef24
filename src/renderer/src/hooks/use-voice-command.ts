import { useState } from 'react';
import { useCommandStore } from '../state/command-store';
import { useInputStore } from '../state/input-store';
import { useStatusStore } from '../state/status-store';
import { useVoiceRecorder, type VoiceRecorderState } from '../voice/use-voice-recorder';
import { useUiEvent } from './use-ui-event';

// Speech to a command: record, transcribe, put the words in the field and run them.
// The push-to-talk hotkey ('ui:voice') toggles recording like the mic button.

export interface VoiceCommand {
  /** Show the mic: the recorder works here and voice is switched on in settings. */
  available: boolean;
  state: VoiceRecorderState;
  error: string | null;
  begin(): Promise<void>;
  finish(): Promise<void>;
  toggle(): Promise<void>;
}

export function useVoiceCommand(): VoiceCommand {
  const [note, setNote] = useState<string | null>(null);

  const runSpoken = async (spoken: string | null): Promise<void> => {
    const text = spoken?.trim();
    if (!text) {
      setNote('Didn’t catch anything. Try again, a little closer to the mic.');
      return;
    }
    useInputStore.getState().setText(text);
    await useCommandStore.getState().run({ kind: 'text', text });
  };

  // A recording that hits the time limit stops by itself and runs like any other.
  const recorder = useVoiceRecorder({ onAutoStop: (text) => void runSpoken(text) });
  const voice = useStatusStore((s) => s.status?.voice);
  const available = recorder.supported && voice?.enabled === true;

  const begin = async (): Promise<void> => {
    setNote(null);
    if (voice && !voice.configured) {
      setNote('Voice is on, but no transcription server is set. Add one in Settings.');
      return;
    }
    await recorder.start();
  };

  const finish = async (): Promise<void> => runSpoken(await recorder.stop());

  const toggle = async (): Promise<void> => {
    if (recorder.state === 'recording') await finish();
    else if (recorder.state === 'idle' || recorder.state === 'error') await begin();
  };

  useUiEvent('ui:voice', () => {
    if (available) void toggle();
  });

  return { available, state: recorder.state, error: recorder.error ?? note, begin, finish, toggle };
}
