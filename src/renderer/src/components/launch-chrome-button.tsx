import { useInputStore } from '../state/input-store';
import { useStatusStore } from '../state/status-store';

/** The one-click fix for "Chrome is not reachable": starts Chrome with DeskPilot's profile. */
export function LaunchChromeButton({ compact = false }: { compact?: boolean }) {
  const launching = useStatusStore((s) => s.launching);
  const launch = useStatusStore((s) => s.launchChrome);
  return (
    <button type="button" className={`button ${compact ? 'button-small' : ''}`} onClick={async () => {
        await launch();
        // The button goes away once Chrome is connected; focus goes back to the field.
        if (!document.activeElement || document.activeElement === document.body) useInputStore.getState().requestFocus();
      }} disabled={launching}>
      {launching ? 'Launching Chrome…' : 'Launch Chrome'}
    </button>
  );
}

/** What happened after Launch Chrome was pressed. */
export function LaunchNote() {
  const note = useStatusStore((s) => s.launchNote);
  if (!note) return null;
  return <p className={`note ${note.ok ? 'note-ok' : 'note-fail'}`}>{note.message}</p>;
}
