import { AgentPanel } from '../components/agent-panel';
import { CommandBar } from '../components/command-bar';
import { ResultPanel } from '../components/result-panel';
import { StatusWarnings } from '../components/status-line';
import { useAgentStore } from '../state/agent-store';
import { useCommandStore } from '../state/command-store';
import { CommandSurface } from './command-surface';

// The hotkey launcher: one field, the result (or the agent task) below it, nothing else;
// grows with content.

export function LauncherView() {
  const idle = useCommandStore((s) => s.phase.kind === 'idle');
  const agentIdle = useAgentStore((s) => s.view === null && s.starting === null && s.error === null);
  const agentMode = useAgentStore((s) => s.mode);
  return (
    <CommandSurface className="launcher" presets={false}>
      <h1 className="sr-only">DeskPilot</h1>
      <CommandBar />
      <AgentPanel />
      <ResultPanel />
      <StatusWarnings hotkeysOnly />
      {idle && agentIdle && (
        <p className="key-hints" aria-hidden="true">
          <kbd>↵</kbd> {agentMode ? 'plan' : 'run'} <kbd>↑</kbd> earlier <kbd>esc</kbd> close
          <span className="key-hint-agent">
            {agentMode ? (
              'Agent mode: you approve every plan'
            ) : (
              <>
                <kbd>agent:</kbd> a web task
              </>
            )}
          </span>
        </p>
      )}
    </CommandSurface>
  );
}
