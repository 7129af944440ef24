import { useRef } from 'react';
import type { VoiceCommand } from '../hooks/use-voice-command';
import { MicIcon } from './icons';

// Click to start and click again to stop, or hold and let go (push to talk). Keyboard:
// Enter/Space toggles.

const HOLD_MS = 350;

export function MicButton({ voice, disabled }: { voice: VoiceCommand; disabled: boolean }) {
  const press = useRef<{ at: number; started: boolean } | null>(null);
  const recording = voice.state === 'recording';
  const busy = voice.state === 'transcribing';

  return (
    <button
      type="button"
      className={`icon-button mic${recording ? ' is-recording' : ''}`}
      aria-label="Speak"
      aria-pressed={recording}
      title={recording ? 'Listening… click or let go to run' : 'Speak a command (click, or hold and talk)'}
      disabled={disabled || busy}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        const idle = voice.state === 'idle' || voice.state === 'error';
        press.current = { at: Date.now(), started: idle };
        if (idle) void voice.begin();
      }}
      onPointerUp={() => {
        const p = press.current;
        if (p?.started && Date.now() - p.at >= HOLD_MS) {
          press.current = { at: p.at, started: true };
          void voice.finish();
        }
      }}
      onClick={() => {
        const p = press.current;
        press.current = null;
        if (p) {
          // Started by this press: a short click keeps listening, a hold already stopped.
          if (!p.started) void voice.finish();
          return;
        }
        void voice.toggle();
      }}
    >
      <MicIcon />
    </button>
  );
}
