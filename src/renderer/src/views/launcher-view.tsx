import { AgentPanel } from '../components/agent-panel';
import { AnimatedHeight } from '../components/animated-height';
import { CommandBar } from '../components/command-bar';
import { LiveResults } from '../components/live-results';
import { ResultPanel } from '../components/result-panel';
import { StatusWarnings } from '../components/status-line';
import { useFitWindow } from '../hooks/use-fit-window';
import { useLiveIndex } from '../hooks/use-live-index';
import { useAgentStore } from '../state/agent-store';
import { useCommandStore } from '../state/command-store';
import { useLiveStore } from '../state/live-store';
import { CommandSurface } from './command-surface';

// The hotkey launcher: one field and, below it, what the words would act on while they are
// typed, then the result (or the agent task). Its window is as tall as this content.

/** Words are being typed (the live list is theirs): the body follows the list at once, never eased. */
const typingWords = () => useLiveStore.getState().listFor !== null;

export function LauncherView() {
  const idle = useCommandStore((s) => s.phase.kind === 'idle');
  const agentIdle = useAgentStore((s) => s.view === null && s.starting === null && s.error === null);
  const agentMode = useAgentStore((s) => s.mode);
  const listing = useLiveStore((s) => s.list.rows.length > 0);
  useLiveIndex();
  useFitWindow(true);
  return (
    <CommandSurface className="launcher" presets={false}>
      <h1 className="sr-only">DeskPilot</h1>
      <CommandBar live />
      <AnimatedHeight className="launcher-body" growsAtOnce={typingWords}>
        <LiveResults />
        <AgentPanel />
        <ResultPanel />
        <StatusWarnings hotkeysOnly />
        {idle && agentIdle && !listing && (
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
      </AnimatedHeight>
    </CommandSurface>
  );
}
