import { useVoiceCommand } from '../hooks/use-voice-command';
import { useCommandStore } from '../state/command-store';
import { useInputStore } from '../state/input-store';
import { CommandInput, runText } from './command-input';
import { ReturnIcon, SparkIcon } from './icons';
import { MicButton } from './mic-button';

// The input row: field, mic, and Run — which turns into Cancel while a request is planned.

export function CommandBar() {
  const phase = useCommandStore((s) => s.phase);
  const cancel = useCommandStore((s) => s.cancel);
  const text = useInputStore((s) => s.text);
  const voice = useVoiceCommand();
  const working = phase.kind === 'working';
  const voiceNote = voice.state === 'recording' ? 'Listening…' : voice.state === 'transcribing' ? 'Transcribing…' : null;

  return (
    <div className="command-bar">
      <div className={`command-row${working ? ' is-working' : ''}${voice.state === 'recording' ? ' is-listening' : ''}`}>
        <span className="command-glyph" aria-hidden="true">
          <SparkIcon />
        </span>
        <CommandInput describedBy={voiceNote || voice.error ? 'voice-note' : undefined} />
        {voice.available && <MicButton voice={voice} disabled={working} />}
        {working && phase.cancellable ? (
          <button type="button" className="button button-quiet" onClick={() => void cancel()} disabled={phase.cancelling}>
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="icon-button run"
            aria-label="Run"
            title="Run (Enter)"
            disabled={working || text.trim() === ''}
            onClick={() => runText(text)}
          >
            <ReturnIcon />
          </button>
        )}
      </div>
      {(voiceNote || voice.error) && (
        <p id="voice-note" className={`voice-note${voice.error && !voiceNote ? ' is-error' : ''}`}>
          {voiceNote ? (
            <>
              <span className="rec-dot" aria-hidden="true" /> {voiceNote}
            </>
          ) : (
            voice.error
          )}
        </p>
      )}
    </div>
  );
}
