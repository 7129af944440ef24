import { useVoiceCommand } from '../hooks/use-voice-command';
import { isAgentText } from '../lib/agent-text';
import { useAgentStore } from '../state/agent-store';
import { useCommandStore } from '../state/command-store';
import { useInputStore } from '../state/input-store';
import { runText } from '../state/run-text';
import { CommandInput } from './command-input';
import { DevicePicker } from './device-picker';
import { AgentIcon, ReturnIcon, SparkIcon } from './icons';
import { MicButton } from './mic-button';

// The input row: field, the Agent toggle, mic, and Run — which turns into Cancel while a
// request is planned.

/** `live`: the launcher's field, which lists matches while typing. */
export function CommandBar({ live = false }: { live?: boolean }) {
  const phase = useCommandStore((s) => s.phase);
  const cancel = useCommandStore((s) => s.cancel);
  // What the bar shows depends on two facts about the words, not on the words: selecting the
  // facts, the bar (and its buttons, the device picker, the mic) does not re-render on every key.
  const empty = useInputStore((s) => s.text.trim() === '');
  const agentText = useInputStore((s) => isAgentText(s.text));
  const agentMode = useAgentStore((s) => s.mode);
  const setAgentMode = useAgentStore((s) => s.setMode);
  const onTab = useAgentStore((s) => s.onTab);
  const setOnTab = useAgentStore((s) => s.setOnTab);
  const voice = useVoiceCommand();
  const working = phase.kind === 'working';
  const agent = agentMode || agentText;
  const voiceNote = voice.state === 'recording' ? 'Listening…' : voice.state === 'transcribing' ? 'Transcribing…' : null;

  return (
    <div className="command-bar">
      <div className={`command-row${working ? ' is-working' : ''}${voice.state === 'recording' ? ' is-listening' : ''}${agent ? ' is-agent' : ''}`}>
        <span className="command-glyph" aria-hidden="true">
          {agent ? <AgentIcon /> : <SparkIcon />}
        </span>
        <CommandInput live={live} describedBy={voiceNote || voice.error ? 'voice-note' : undefined} />
        {live && !agent && <DevicePicker />}
        <button
          type="button"
          className={`agent-toggle${agentMode ? ' is-on' : ''}`}
          aria-pressed={agentMode}
          title={
            agentMode
              ? 'Agent mode is on: Enter plans a web task in Chrome for you to approve. Click to type commands again.'
              : 'Agent mode: DeskPilot plans a web task in Chrome, you approve the steps, then it works. (Or start with “agent:”.)'
          }
          onClick={() => {
            setAgentMode(!agentMode);
            // Back to typing, without selecting what is already there.
            document.getElementById('command-input')?.focus();
          }}
        >
          <AgentIcon size={14} />
          <span>Agent</span>
        </button>
        {agent && (
          <button
            type="button"
            className={`agent-toggle agent-tab-toggle${onTab ? ' is-on' : ''}`}
            aria-pressed={onTab}
            title={
              onTab
                ? 'The agent starts on the tab you are looking at, and the planner reads it. Click to start in fresh tabs instead.'
                : 'Start on the tab you are looking at (the planner reads it, and can answer questions about it without steps).'
            }
            onClick={() => {
              setOnTab(!onTab);
              document.getElementById('command-input')?.focus();
            }}
          >
            <span>This tab</span>
          </button>
        )}
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
            title={agent ? 'Plan this task (Enter)' : 'Run (Enter)'}
            disabled={working || empty}
            onClick={() => runText(useInputStore.getState().text)}
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
