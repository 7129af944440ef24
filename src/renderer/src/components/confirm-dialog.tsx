import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { DeviceBadge } from '../../../protocol/ipc';
import type { PlannedCommand } from '../../../protocol/report';
import { resultBadge } from '../lib/devices';
import { useCommandStore } from '../state/command-store';
import { useInputStore } from '../state/input-store';
import { useModalGuard } from '../hooks/use-modal-guard';
import { tidyMessage } from '../live/site';

// Before anything closes: exactly what will close, "Close them" (Enter) or "Cancel" (Esc).
// Modal: the rest of the window is inert, Tab stays between the two buttons.

/** Counts the things that will close, not the commands: one close_tab can close many tabs. */
function title(items: PlannedCommand[]): string {
  const count = (type: PlannedCommand['type']) => items.filter((i) => i.type === type).reduce((n, i) => n + Math.max(1, i.targets.length), 0);
  const tabs = count('close_tab');
  const apps = count('close_app');
  if (tabs && !apps) return tabs === 1 ? 'Close this tab?' : 'Close these tabs?';
  if (apps && !tabs) return apps === 1 ? 'Quit this app?' : 'Quit these apps?';
  return 'Close these?';
}

/** How long after opening the dialog ignores Enter. */
const ARM_MS = 400;

/** `device`: the other computer it will happen on (asked here, where the person is). */
export function ConfirmDialog({ items, device }: { items: PlannedCommand[]; device?: DeviceBadge }) {
  useModalGuard();
  const answer = useCommandStore((s) => s.answerConfirm);
  const acceptRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  // Set when the dialog mounts (in the effect below): an Enter before that never accepts.
  const openedAt = useRef(Number.POSITIVE_INFINITY);
  useEffect(() => {
    openedAt.current = performance.now();
    acceptRef.current?.focus();
    return () => useInputStore.getState().requestFocus();
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    // The Enter that submitted the command may still be held (auto-repeat) or pressed twice:
    // it must not also accept a dialog the user has not read.
    if (e.key === 'Enter' && (e.repeat || performance.now() - openedAt.current < ARM_MS)) {
      e.preventDefault();
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      void answer(false);
    } else if (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement)) {
      e.preventDefault();
      void answer(true);
    } else if (e.key === 'Tab') {
      e.preventDefault();
      const next = document.activeElement === acceptRef.current ? cancelRef.current : acceptRef.current;
      next?.focus();
    }
  };

  return (
    <div className="dialog-backdrop">
      <div
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        aria-describedby="confirm-items"
        onKeyDown={onKeyDown}
      >
        <h2 id="confirm-title" className="dialog-title">
          {device ? `${resultBadge(device)}: ${title(items)}` : title(items)}
        </h2>
        <ul id="confirm-items" className="confirm-items scroll-fade">
          {items.flatMap((item) =>
            (item.targets.length ? item.targets : [item.summary]).map((target, i) => (
              <li key={`${item.index}-${i}`}>{tidyMessage(item.type === 'close_app' ? `quit ${target}` : target)}</li>
            )),
          )}
        </ul>
        <div className="dialog-buttons">
          <button ref={cancelRef} type="button" className="button" onClick={() => void answer(false)}>
            Cancel
          </button>
          <button ref={acceptRef} type="button" className="button button-danger" onClick={() => void answer(true)}>
            {items.every((i) => i.type === 'close_app') ? 'Quit them' : 'Close them'}
          </button>
        </div>
      </div>
    </div>
  );
}
