import { useId, useState } from 'react';
import type { Preset } from '../../../protocol/preset';
import { useCommandStore } from '../state/command-store';
import { usePresetsStore } from '../state/presets-store';
import { TrashIcon } from './icons';

// One preset, a full-width row: the row applies it (its name, then its apps, wrapping to a
// second line when long), and a small delete button at the end asks first.

const appsOf = (p: Preset): string => {
  const apps = p.placements.map((x) => x.app);
  const urls = p.urls.length ? [`${p.urls.length} tab${p.urls.length === 1 ? '' : 's'}`] : [];
  return [...apps, ...urls].join(', ') || 'empty';
};

export function PresetItem({ preset, disabled }: { preset: Preset; disabled: boolean }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const remove = usePresetsStore((s) => s.remove);
  const apps = appsOf(preset);
  const appsId = useId();

  if (asking) {
    return (
      <li
        className="preset is-asking"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            setAsking(false);
          }
        }}
      >
        <span className="preset-ask">Delete “{preset.name}”?</span>
        <div className="preset-ask-buttons">
          <button type="button" className="button button-small" autoFocus onClick={() => setAsking(false)}>
            Keep
          </button>
          <button
            type="button"
            className="button button-small button-danger"
            disabled={deleting}
            onClick={async () => {
              setDeleting(true);
              const r = await remove(preset.name);
              setDeleting(false);
              if (r.ok) setAsking(false);
              else setError(r.error);
            }}
          >
            Delete
          </button>
        </div>
        {error && <p className="note note-fail">{error}</p>}
      </li>
    );
  }

  return (
    <li className="preset" title={`Apply “${preset.name}”: ${apps}.\nTo change it, arrange your windows and save the layout again under the same name.`}>
      <button
        type="button"
        className="preset-apply"
        aria-describedby={appsId}
        disabled={disabled}
        onClick={() => void useCommandStore.getState().run({ kind: 'preset', name: preset.name })}
      >
        {/* Named by what it shows (the preset), the action said to screen readers; the apps are its description. */}
        <span className="preset-text">
          <span className="sr-only">Apply preset </span>
          <span className="preset-name">{preset.name}</span>{' '}
          <span className="preset-apps" id={appsId} aria-hidden="true">
            {apps}
          </span>
        </span>
      </button>
      <button
        type="button"
        className="icon-button preset-delete"
        aria-label={`Delete preset ${preset.name}`}
        title={`Delete “${preset.name}”`}
        onClick={() => {
          setError(null);
          setAsking(true);
        }}
      >
        <TrashIcon />
      </button>
    </li>
  );
}
