import { useRef, useState } from 'react';
import { useCommandStore } from '../state/command-store';
import { usePresetsStore } from '../state/presets-store';
import { PlusIcon } from './icons';
import { PresetItem } from './preset-item';
import { PresetSaveForm } from './preset-save-form';

export function PresetGrid() {
  const { presets, loaded, error } = usePresetsStore();
  const busy = useCommandStore((s) => s.phase.kind === 'working' || s.phase.kind === 'confirm');
  const [saving, setSaving] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const closeForm = (): void => {
    setSaving(false);
    requestAnimationFrame(() => openButton.current?.focus());
  };

  return (
    <section className="panel-section" aria-labelledby="presets-heading">
      <div className="section-head">
        <h2 id="presets-heading" className="section-heading">
          Presets
        </h2>
        {!saving && (
          <button ref={openButton} type="button" className="link-button" onClick={() => setSaving(true)} title="Save where your windows are now as a preset. Saving again under a preset’s name updates it.">
            <PlusIcon /> Save current layout…
          </button>
        )}
      </div>
      {saving && <PresetSaveForm onDone={closeForm} />}
      {error && <p className="note note-fail">Presets could not be read: {error}</p>}
      {loaded && !error && presets.length === 0 && !saving && (
        <p className="hint">No presets yet. Arrange your windows, then save the layout to bring it back in one click.</p>
      )}
      {presets.length > 0 && (
        <ul className="preset-list">
          {presets.map((p) => (
            <PresetItem key={p.name} preset={p} disabled={busy} />
          ))}
        </ul>
      )}
    </section>
  );
}
