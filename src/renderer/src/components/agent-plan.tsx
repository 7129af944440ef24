import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AgentRunView } from '../../../protocol/ipc';
import { useAgentStore } from '../state/agent-store';
import { curlyQuotes } from '../live/site';
import { PlusIcon, TrashIcon } from './icons';

// The plan before anything runs: the planner's message and numbered steps, then Approve
// (focused, so Enter runs it), Edit steps, or Cancel (Esc). Editing turns each step into a
// field with a remove button, and a step can be added; Esc in the editor drops the edits.

const MAX_STEPS = 30;
const MAX_STEP_CHARS = 500;

let keySeq = 0;
const newKey = () => `s${++keySeq}`;

export function AgentPlan({ view }: { view: AgentRunView }) {
  const approve = useAgentStore((s) => s.approve);
  const cancelPlan = useAgentStore((s) => s.cancelPlan);
  const busy = useAgentStore((s) => s.busy);
  const plan = view.steps.filter((s) => s.kind === 'plan').map((s) => s.step);
  const [draft, setDraft] = useState<Array<{ key: string; text: string }> | null>(null);
  const approveRef = useRef<HTMLButtonElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const focusKey = useRef<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  // Enter approves: the primary button has focus as soon as the plan is there.
  useEffect(() => {
    approveRef.current?.focus();
  }, [view.runId]);

  // After an edit action, focus goes where the person is working (a new step, the next field).
  useEffect(() => {
    if (!focusKey.current) return;
    const el = listRef.current?.querySelector<HTMLInputElement>(`input[data-key="${focusKey.current}"]`);
    focusKey.current = null;
    el?.focus();
  });

  const edited = draft?.map((d) => d.text.trim()).filter((t) => t !== '') ?? null;
  const startEditing = () => {
    const rows = plan.map((text) => ({ key: newKey(), text }));
    focusKey.current = rows[0]?.key ?? null;
    setDraft(rows);
  };
  const stopEditing = () => {
    setDraft(null);
    requestAnimationFrame(() => editRef.current?.focus());
  };
  const onEditorKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Escape') return;
    // Esc leaves the editor; it must not also cancel the plan (use-escape).
    e.preventDefault();
    e.stopPropagation();
    stopEditing();
  };

  return (
    <div className="agent-plan">
      {view.message && <p className="agent-message">{curlyQuotes(view.message)}</p>}
      {draft === null ? (
        <ol className="agent-plan-steps" aria-label="Plan">
          {plan.map((step, i) => (
            <li key={i} className="agent-plan-step">
              <span className="step-number" aria-hidden="true">
                {i + 1}
              </span>
              <span className="agent-plan-text">{curlyQuotes(step)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <div className="agent-plan-editor" onKeyDown={onEditorKey}>
          <ol className="agent-plan-steps is-editing" aria-label="Edit the plan" ref={listRef}>
            {draft.map((row, i) => (
              <li key={row.key} className="agent-plan-step">
                <span className="step-number" aria-hidden="true">
                  {i + 1}
                </span>
                <input
                  className="text-field"
                  type="text"
                  data-key={row.key}
                  aria-label={`Step ${i + 1}`}
                  value={row.text}
                  maxLength={MAX_STEP_CHARS}
                  onChange={(e) => setDraft(draft.map((d) => (d.key === row.key ? { ...d, text: e.target.value } : d)))}
                />
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove step ${i + 1}`}
                  title="Remove this step"
                  onClick={() => {
                    const rest = draft.filter((d) => d.key !== row.key);
                    focusKey.current = (rest[i] ?? rest[i - 1])?.key ?? null;
                    setDraft(rest);
                  }}
                >
                  <TrashIcon />
                </button>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="link-button agent-add-step"
            disabled={draft.length >= MAX_STEPS}
            onClick={() => {
              const row = { key: newKey(), text: '' };
              focusKey.current = row.key;
              setDraft([...draft, row]);
            }}
          >
            <PlusIcon /> Add a step
          </button>
          {edited !== null && edited.length === 0 && (
            <p className="note note-fail" role="alert">
              The plan needs at least one step.
            </p>
          )}
        </div>
      )}
      <div className="agent-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void cancelPlan()}>
          Cancel
        </button>
        {draft === null ? (
          <button ref={editRef} type="button" className="button" disabled={busy} onClick={startEditing}>
            Edit steps
          </button>
        ) : (
          <button type="button" className="button" disabled={busy} onClick={stopEditing}>
            Undo edits
          </button>
        )}
        <button
          ref={approveRef}
          type="button"
          className="button button-primary"
          disabled={busy || (edited !== null && edited.length === 0)}
          onClick={() => void approve(edited ?? undefined)}
        >
          {draft === null ? 'Approve' : 'Approve edited plan'}
        </button>
      </div>
    </div>
  );
}
