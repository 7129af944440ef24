import { useEffect, useRef, useState } from 'react';
import { useAnnouncer } from '../state/announcer-store';
import { usePresetsStore } from '../state/presets-store';

// "Save current layout…": a name, then every visible window's place is stored under it.
// Saving under an existing name replaces that preset (that is how a preset is edited).

export function PresetSaveForm({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const presets = usePresetsStore((s) => s.presets);
  const save = usePresetsStore((s) => s.save);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);

  const existing = presets.find((p) => p.name.toLowerCase() === name.trim().toLowerCase());

  return (
    <form
      className="preset-save"
      aria-label="Save current layout"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onDone();
        }
      }}
      onSubmit={async (e) => {
        e.preventDefault();
        const n = name.trim();
        if (!n) {
          setError('Give the layout a name.');
          return;
        }
        setSaving(true);
        setError(null);
        const r = await save(n);
        setSaving(false);
        if (r.ok) {
          useAnnouncer.getState().say(`Saved layout ${r.value.name} with ${r.value.placements.length} windows.`);
          onDone();
        } else setError(r.error);
      }}
    >
      <div className="preset-save-row">
        <input
          ref={ref}
          className="text-field"
          type="text"
          aria-label="Preset name"
          placeholder="Name, e.g. code space"
          value={name}
          maxLength={256}
          aria-invalid={error ? true : undefined}
          aria-describedby="preset-save-note"
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
        />
        <button type="submit" className="button button-primary button-small" disabled={saving}>
          {saving ? 'Saving…' : 'Save layout'}
        </button>
        <button type="button" className="button button-small" aria-label="Cancel saving" onClick={onDone}>
          Cancel
        </button>
      </div>
      <p id="preset-save-note" className={error ? 'note note-fail' : 'hint'}>
        {error ?? (existing ? `Replaces “${existing.name}” with the windows as they are now.` : 'Saves where every visible window is now.')}
      </p>
    </form>
  );
}
