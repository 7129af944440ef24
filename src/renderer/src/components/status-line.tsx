import type { HotkeyStatus } from '../../../protocol/ipc';
import { acceleratorLabel } from '../lib/accelerator-label';
import { useStatusStore } from '../state/status-store';
import { WarnIcon } from './icons';
import { LaunchChromeButton } from './launch-chrome-button';

// The bottom line: which planner, whether Chrome and the window backend are there, and —
// loudly — anything that needs fixing (Chrome not connected, a hotkey that did not register).

function Dot({ ok }: { ok: boolean }) {
  return <span className={`dot ${ok ? 'dot-ok' : 'dot-off'}`} aria-hidden="true" />;
}

const hotkeyProblem = (name: string, h: HotkeyStatus): string | null =>
  h.registered || !h.accelerator
    ? null
    : `The ${name} hotkey ${acceleratorLabel(h.accelerator)} isn’t set up${h.error ? `: ${h.error.replace(/\.$/, '')}` : ''}.`;

export function StatusWarnings({ hotkeysOnly = false, onOpenSettings }: { hotkeysOnly?: boolean; onOpenSettings?: () => void }) {
  const status = useStatusStore((s) => s.status);
  const error = useStatusStore((s) => s.error);
  if (!status) return error && !hotkeysOnly ? <div className="status-warnings"><p className="warning"><WarnIcon /> Status unavailable: {error}</p></div> : null;

  const warnings: { key: string; text: string; chrome?: boolean; settings?: boolean }[] = [];
  const launcher = hotkeyProblem('launcher', status.hotkeys.launcher);
  const voice = status.voice.enabled ? hotkeyProblem('voice', status.hotkeys.voice) : null;
  if (launcher) warnings.push({ key: 'hk-launcher', text: launcher, settings: true });
  if (voice) warnings.push({ key: 'hk-voice', text: voice, settings: true });
  if (!hotkeysOnly) {
    if (!status.chrome.ok) warnings.push({ key: 'chrome', text: 'Chrome is not connected, so tab commands won’t work.', chrome: true });
    if (!status.windows.ok) warnings.push({ key: 'windows', text: `Windows can’t be moved: ${status.windows.message}` });
  }
  if (warnings.length === 0) return null;

  return (
    <ul className="status-warnings" aria-label="Problems">
      {warnings.map((w) => (
        <li key={w.key} className="warning" title={w.chrome ? status.chrome.message : undefined}>
          <WarnIcon />
          <span className="warning-text">{w.text}</span>
          {w.chrome && <LaunchChromeButton compact />}
          {w.settings && onOpenSettings && (
            <button type="button" className="button button-small" onClick={onOpenSettings}>
              Change…
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

export function StatusLine() {
  const status = useStatusStore((s) => s.status);
  if (!status) {
    return (
      <span className="status-items" aria-busy="true">
        <span className="status-item muted">Checking…</span>
      </span>
    );
  }
  return (
    <span className="status-items">
      <span className="status-item" title={`Planner: ${status.planner.description}`}>
        <Dot ok />
        <span className="sr-only">Planner: </span>
        <span className="status-text">{status.planner.description}</span>
      </span>
      <span className="status-item" title={status.chrome.message}>
        <Dot ok={status.chrome.ok} />
        Chrome<span className="sr-only">{status.chrome.ok ? ' connected' : ' not connected'}</span>
      </span>
      <span className="status-item" title={status.windows.message}>
        <Dot ok={status.windows.ok} />
        Windows<span className="sr-only">{status.windows.ok ? ': ' : ' unavailable: '}{status.windows.message}</span>
      </span>
    </span>
  );
}
