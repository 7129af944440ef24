import { useMemo } from 'react';
import { sourceLabel } from '../state/command-source';
import { useCommandStore } from '../state/command-store';
import { useHistoryStore } from '../state/history-store';
import { useInputStore } from '../state/input-store';
import { useRecallStore } from '../state/recall-store';
import { tidyMessage } from '../live/site';
import { suggestions } from '../live/suggestions';
import { useLiveStore } from '../state/live-store';
import { Mark } from './mark';

// This session's requests, newest first: ✓/✗ and the first result; a click runs it again.
// Before the first one: sentences to try, made from what this desk has open.

export function HistoryList() {
  const entries = useHistoryStore((s) => s.entries);
  const working = useCommandStore((s) => s.phase.kind === 'working' || s.phase.kind === 'confirm');
  const index = useLiveStore((s) => s.index);
  const examples = useMemo(() => suggestions(index), [index]);

  return (
    <section className="panel-section" aria-labelledby="history-heading">
      <h2 id="history-heading" className="section-heading">
        Recent
      </h2>
      {entries.length === 0 ? (
        <div className="examples">
          <p className="hint">Nothing yet this session.{examples.length > 0 && ' Try:'}</p>
          <ul className="example-list">
            {examples.map((x) => (
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
              <li key={e.runId} className="history-row">
                <Mark kind={e.outcome.mark} id={`history-mark-${e.runId}`} />
                <button
                  type="button"
                  className="history-item"
                  aria-label={`Run again: ${label}`}
                  aria-describedby={`history-mark-${e.runId} history-outcome-${e.runId}`}
                  // The row is cut to one line; the tooltip has all of it.
                  title={`${label}\n${tidyMessage(e.outcome.message)}`}
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
                  {tidyMessage(e.outcome.message)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
