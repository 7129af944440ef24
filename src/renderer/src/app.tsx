import { useEffect, useState } from 'react';
import { useStore } from './store';

// A minimal window: the snapshot and an exec box. The real launcher and popover come with the UI issue.
export function App() {
  const { snapshot, report, error, busy, refresh, exec } = useStore();
  const [json, setJson] = useState('{"type":"list_tabs"}');
  useEffect(() => void refresh(), [refresh]);

  return (
    <main>
      <h1>DeskPilot</h1>
      <section aria-label="Status">
        <p>Chrome: {snapshot ? snapshot.sources.chrome.message : '…'}</p>
        <p>Windows: {snapshot ? snapshot.sources.windows.message : '…'}</p>
      </section>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void exec(json);
        }}
      >
        <label htmlFor="cmd">Command JSON</label>
        <textarea id="cmd" value={json} onChange={(e) => setJson(e.target.value)} rows={3} />
        <button type="submit" disabled={busy}>
          {busy ? 'Running…' : 'Run'}
        </button>
      </form>
      {error && <p role="alert">{error}</p>}
      {report && (
        <ul aria-label="Results">
          {report.errors.map((e, i) => (
            <li key={`e${i}`}>✗ {e.path}: {e.message}</li>
          ))}
          {report.results.map((r) => (
            <li key={r.index}>
              {r.ok ? '✓' : '✗'} {r.message}
            </li>
          ))}
        </ul>
      )}
      <section aria-label="Tabs">
        <h2>Tabs</h2>
        <ol>
          {snapshot?.tabs.map((t) => (
            <li key={t.target_id}>
              {t.is_active ? <strong>{t.title}</strong> : t.title} <small>{t.domain}</small>
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}
