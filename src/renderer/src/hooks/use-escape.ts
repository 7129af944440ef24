import { useEffect } from 'react';
import { call } from '../lib/api';
import { useCommandStore } from '../state/command-store';
import { useInputStore } from '../state/input-store';

// Esc, wherever focus is: cancels what is running, else clears the field and the result,
// else (the second Esc) hides the window. Dialogs and inline forms handle their own Esc
// first and mark the event handled.

export function useEscape(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return;
      e.preventDefault();
      const { phase, cancel, reset } = useCommandStore.getState();
      const input = useInputStore.getState();
      if (phase.kind === 'working') {
        void cancel();
      } else if (input.text !== '' || phase.kind !== 'idle') {
        input.setText('');
        reset();
        input.requestFocus();
      } else {
        void call((api) => api.windowHide({}));
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
