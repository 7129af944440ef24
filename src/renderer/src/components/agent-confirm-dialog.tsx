import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useAgentStore } from '../state/agent-store';
import { useModalGuard } from '../hooks/use-modal-guard';
import { presentAgentText } from '../lib/agent-present';

// The agent's safety question (typing into a password field, submitting a payment form …),
// in the confirmation dialog's style. The run waits for the answer. "Don't allow" has focus,
// so a stray Enter never pays or signs in; Esc answers no; Tab stays between the two buttons.

export function AgentConfirmDialog({ question }: { question: string }) {
  useModalGuard();
  const answer = useAgentStore((s) => s.answerConfirm);
  const allowRef = useRef<HTMLButtonElement>(null);
  const denyRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    denyRef.current?.focus();
    // In the launcher the dialog sits below the task in the page's flow: bring all of it into view.
    dialogRef.current?.scrollIntoView({ block: 'nearest' });
    // Back to the run's correction field (or the command field when the run has ended).
    return () => {
      requestAnimationFrame(() => {
        const field = document.getElementById('agent-correction') ?? document.getElementById('command-input');
        field?.focus();
      });
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      void answer(false);
    } else if (e.key === 'Tab') {
      e.preventDefault();
      const next = document.activeElement === allowRef.current ? denyRef.current : allowRef.current;
      next?.focus();
    }
  };

  return (
    <div className="dialog-backdrop">
      <div
        ref={dialogRef}
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="agent-confirm-title"
        aria-describedby="agent-confirm-question"
        onKeyDown={onKeyDown}
      >
        <h2 id="agent-confirm-title" className="dialog-title">
          Allow the agent to do this?
        </h2>
        <p id="agent-confirm-question" className="agent-confirm-question">
          {presentAgentText(question)}
        </p>
        <p className="hint agent-confirm-hint">The agent waits for you. If you don’t allow it, it won’t try this again.</p>
        <div className="dialog-buttons">
          <button ref={denyRef} type="button" className="button" onClick={() => void answer(false)}>
            Don’t allow
          </button>
          <button ref={allowRef} type="button" className="button button-danger" onClick={() => void answer(true)}>
            Allow
          </button>
        </div>
      </div>
    </div>
  );
}
