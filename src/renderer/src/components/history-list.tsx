import { sourceLabel } from '../state/command-source';
import { useCommandStore } from '../state/command-store';
import { useHistoryStore } from '../state/history-store';
import { useInputStore } from '../state/input-store';
import { useRecallStore } from '../state/recall-store';
import { Mark } from './mark';

// This session's requests, newest first: ✓/✗ and the first result; a click runs it again.

const EXAMPLES = ['switch to reddit', 'chrome left and cursor right', 'close all youtube tabs', 'how many tabs do I have open?'];

export function HistoryList() {
  const entries = useHistoryStore((s) => s.entries);
  const working = useCommandStore((s) => s.phase.kind === 'working' || s.phase.kind === 'confirm');

  return (
    <section className="panel-section" aria-labelledby="history-heading">
      <h2 id="history-heading" className="section-heading">
        Recent
      </h2>
      {entries.length === 0 ? (
        <div className="examples">
          <p className="hint">Nothing yet this session. Try:</p>
          <ul className="example-list">
            {EXAMPLES.map((x) => (
              <li key={x}>
                <button
                  type="button"
                  className="chip"
                  title="Put this in the field"
                  onClick={() => {
                    useInputStore.getState().setText(x);
                    useInputStore.getState().requestFocus();
                  }}
                >
                  {x}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <ul className="history">
          {entries.map((e) => {
            const label = sourceLabel(e.source);
            return (
              <li key={e.runId} className="history-row" title={`Run again: ${label}\n${e.outcome.message}`}>
                <Mark kind={e.outcome.mark} id={`history-mark-${e.runId}`} />
                <button
                  type="button"
                  className="history-item"
                  aria-label={`Run again: ${label}`}
                  aria-describedby={`history-mark-${e.runId} history-outcome-${e.runId}`}
                  disabled={working}
                  onClick={() => {
                    if (e.source.kind === 'text') {
                      useInputStore.getState().setText(e.source.text);
                      useRecallStore.getState().remember(e.source.text);
                    }
                    void useCommandStore.getState().run(e.source);
                  }}
                >
                  <span className="history-text">{label}</span>
                </button>
                <span className="history-outcome" id={`history-outcome-${e.runId}`}>
                  {e.outcome.message}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
