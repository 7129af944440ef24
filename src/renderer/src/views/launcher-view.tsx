import { CommandBar } from '../components/command-bar';
import { ResultPanel } from '../components/result-panel';
import { StatusWarnings } from '../components/status-line';
import { useCommandStore } from '../state/command-store';
import { CommandSurface } from './command-surface';

// The hotkey launcher: one field, the result below it, nothing else; grows with content.

export function LauncherView() {
  const idle = useCommandStore((s) => s.phase.kind === 'idle');
  return (
    <CommandSurface className="launcher" presets={false}>
      <h1 className="sr-only">DeskPilot</h1>
      <CommandBar />
      <ResultPanel />
      <StatusWarnings hotkeysOnly />
      {idle && (
        <p className="key-hints" aria-hidden="true">
          <kbd>↵</kbd> run <kbd>↑</kbd> earlier <kbd>esc</kbd> close
        </p>
      )}
    </CommandSurface>
  );
}
