import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { AgentRunView } from '../../../protocol/ipc';
import { isEnded, progressLabel, STATUS_LABEL } from '../lib/agent-text';
import { useAgentStore } from '../state/agent-store';
import { useInputStore } from '../state/input-store';
import { AgentPlan } from './agent-plan';
import { AgentSteps } from './agent-steps';
import { FixHint } from './fix-hint';
import { AgentIcon, StopIcon } from './icons';
import { Mark } from './mark';
import { Spinner } from './spinner';
import { presentAgentText } from '../lib/agent-present';
import { curlyQuotes } from '../live/site';

// An agent task below the field, from Enter to its answer: planning (Cancel), the plan
// (Approve / Edit steps / Cancel), then the steps as they run with Stop and a field for a
// correction, and at the end the answer (or why it ended) with Clear.

export function AgentPanel() {
  const view = useAgentStore((s) => s.view);
  const starting = useAgentStore((s) => s.starting);
  const error = useAgentStore((s) => s.error);
  if (view) return <RunPanel view={view} />;
  if (starting !== null) {
    return (
      <Frame status="planning" goal={starting}>
        <Planning />
      </Frame>
    );
  }
  if (error) {
    return (
      <Frame status="failed" goal={error.goal}>
        <div className="result-line is-fail">
          <Mark kind="fail" />
          <div className="result-body">
            <span className="result-message">{error.message}</span>
            <FixHint code={error.code} />
          </div>
        </div>
        <EndActions />
      </Frame>
    );
  }
  return null;
}

function Frame({ status, goal, progress, children }: { status: AgentRunView['status']; goal: string; progress?: string | null; children: ReactNode }) {
  return (
    <section className={`agent-panel scroll-fade is-${status}`} aria-label="Agent task" data-agent-status={status}>
      <header className="agent-head">
        <span className="agent-badge">
          <AgentIcon size={14} /> Agent
        </span>
        <span className="agent-status" aria-live="off">
          {STATUS_LABEL[status]}
          {progress ? ` · ${progress}` : ''}
        </span>
      </header>
      <p className="agent-goal" title={goal}>
        {goal}
      </p>
      {children}
    </section>
  );
}

function Planning({ runId }: { runId?: string }) {
  const stop = useAgentStore((s) => s.stop);
  return (
    <div className="working agent-working">
      <Spinner />
      <span>Planning the steps…</span>
      <button type="button" className="button button-small" disabled={!runId} onClick={() => void stop()}>
        Cancel
      </button>
    </div>
  );
}

function RunPanel({ view }: { view: AgentRunView }) {
  const note = useAgentStore((s) => s.note);
  const ended = isEnded(view.status);
  const live = view.status === 'running' || view.status === 'stopping';
  return (
    <Frame status={view.status} goal={view.goal} progress={live ? progressLabel(view.steps) : null}>
      {view.status === 'planning' && <Planning runId={view.runId} />}
      {view.status === 'awaiting_approval' && <AgentPlan view={view} />}
      {/* Ended: the answer (or why it ended) first, then how it got there. */}
      {ended && <Outcome view={view} />}
      {/* A plan that was not approved never ran: no step list for it. */}
      {(live || (ended && view.status !== 'cancelled')) && view.steps.length > 0 && <AgentSteps steps={view.steps} ended={ended} />}
      {view.notices.length > 0 && (live || ended) && (
        <ul className="agent-notices" aria-label="Notes">
          {view.notices.map((n, i) => (
            <li key={i}>{presentAgentText(n)}</li>
          ))}
        </ul>
      )}
      {live && <RunControls view={view} />}
      {note && (
        <p className="note note-fail" role="status">
          {note}
        </p>
      )}
    </Frame>
  );
}

function RunControls({ view }: { view: AgentRunView }) {
  const stop = useAgentStore((s) => s.stop);
  const correct = useAgentStore((s) => s.correct);
  const busy = useAgentStore((s) => s.busy);
  const [text, setText] = useState('');
  const ref = useRef<HTMLInputElement>(null);
  const stopping = view.status === 'stopping';

  // Approve is gone once the run starts: the correction field takes focus, not the window.
  useEffect(() => {
    if (!document.querySelector('[role="alertdialog"]')) ref.current?.focus();
  }, [view.runId]);

  return (
    <div className="agent-controls">
      {stopping ? (
        <p className="agent-stopping">
          <Spinner /> Stopping — the step in progress finishes first.
        </p>
      ) : (
        <form
          className="agent-correct"
          aria-label="Correct the agent"
          onSubmit={(e) => {
            e.preventDefault();
            const t = text.trim();
            if (!t) return;
            // Sent at once (it shows in the steps as waiting); back in the field if it was refused.
            setText('');
            void correct(t).then((ok) => {
              if (!ok) setText((now) => (now === '' ? t : now));
            });
          }}
        >
          <input
            ref={ref}
            id="agent-correction"
            className="text-field"
            type="text"
            aria-label="Correction"
            placeholder="Correct the agent, e.g. “use the second result”"
            autoComplete="off"
            spellCheck={false}
            maxLength={2000}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="button" disabled={busy || text.trim() === ''}>
            Send
          </button>
        </form>
      )}
      <button type="button" className="button button-danger agent-stop" disabled={stopping} onClick={() => void stop()}>
        <StopIcon /> Stop
      </button>
    </div>
  );
}

function Outcome({ view }: { view: AgentRunView }) {
  // The run is over: focus goes back to the field for the next task.
  useEffect(() => {
    useInputStore.getState().requestFocus();
  }, [view.runId]);

  return (
    <div className="agent-outcome">
      {view.status === 'done' ? (
        <section className="agent-answer" aria-label="Answer">
          <h2 className="agent-answer-label">
            <Mark kind="ok" /> Answer
          </h2>
          <p className="agent-answer-text">{view.answer ? curlyQuotes(view.answer) : 'Done.'}</p>
        </section>
      ) : (
        <div className={`result-line ${view.status === 'cancelled' || view.status === 'stopped' ? 'cancelled' : 'is-fail'}`}>
          <Mark kind={view.status === 'cancelled' || view.status === 'stopped' ? 'cancel' : 'fail'} />
          <div className="result-body">
            <span className="result-message">{view.reason ? presentAgentText(view.reason) : STATUS_LABEL[view.status]}</span>
          </div>
        </div>
      )}
      <EndActions />
    </div>
  );
}

function EndActions() {
  const dismiss = useAgentStore((s) => s.dismiss);
  return (
    <div className="agent-actions">
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          dismiss();
          useInputStore.getState().requestFocus();
        }}
      >
        Clear
      </button>
    </div>
  );
}
