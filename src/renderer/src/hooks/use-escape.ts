import { useEffect } from 'react';
import { isEnded } from '../lib/agent-text';
import { call } from '../lib/api';
import { useAgentStore } from '../state/agent-store';
import { useCommandStore } from '../state/command-store';
import { useInputStore } from '../state/input-store';

// Esc, wherever focus is: cancels what is running, else clears the field and the result,
// else (the second Esc) hides the window. Dialogs and inline forms handle their own Esc
// first and mark the event handled. An agent task being planned is cancelled, a plan waiting
// for approval is cancelled (nothing of it ran); a running task is never stopped by Esc —
// only by its Stop button — so Esc there clears the field and then hides the window while
// the task goes on; an ended task's panel is cleared like a result.

export function useEscape(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
      e.preventDefault();
      const { phase, cancel, reset } = useCommandStore.getState();
      const input = useInputStore.getState();
      const agent = useAgentStore.getState();
      const run = agent.view;
      if (phase.kind === 'working') {
        void cancel();
      } else if (run?.status === 'planning') {
        void agent.stop();
      } else if (run?.status === 'awaiting_approval') {
        void agent.cancelPlan();
      } else if (input.text !== '' || phase.kind !== 'idle' || (run && isEnded(run.status)) || (!run && agent.error)) {
        input.setText('');
        reset();
        agent.dismiss();
        input.requestFocus();
      } else {
        void call((api) => api.windowHide({}));
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
