import { AgentPanel } from '../components/agent-panel';
import { CommandBar } from '../components/command-bar';
import { HistoryList } from '../components/history-list';
import { GearIcon } from '../components/icons';
import { PresetGrid } from '../components/preset-grid';
import { ResultPanel } from '../components/result-panel';
import { StatusLine, StatusWarnings } from '../components/status-line';
import { useLiveIndex } from '../hooks/use-live-index';
import { CommandSurface } from './command-surface';

// The tray popover: the field on top, then presets and recent commands, status at the bottom.

export function PopoverView({ openSettings }: { openSettings(): void }) {
  // The desk's index: what the empty state suggests comes from it.
  useLiveIndex();
  return (
    <CommandSurface className="popover" presets>
      <h1 className="sr-only">DeskPilot</h1>
      <div className="popover-top">
        <CommandBar />
        <AgentPanel />
        <ResultPanel />
      </div>
      <div className="popover-body scroll-fade">
        <PresetGrid />
        <HistoryList />
      </div>
      <section className="popover-footer" aria-label="Status">
        <StatusWarnings onOpenSettings={openSettings} />
        <div className="status-row">
          <p className="status-line">
            <StatusLine />
          </p>
          <button type="button" className="icon-button" aria-label="Settings" title="Settings" onClick={openSettings}>
            <GearIcon />
          </button>
        </div>
      </section>
    </CommandSurface>
  );
}
