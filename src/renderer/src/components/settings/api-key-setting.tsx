import { useSettingsStore } from '../../state/settings-store';
import { describedBy, FieldRow, overrideId, useEnvOverride } from './field-row';
import { fieldId } from './text-setting';

// Write-only: the key never comes back from main. Shows whether one is saved, takes a new
// one, and Remove deletes it right away.

export function ApiKeySetting() {
  const value = useSettingsStore((s) => s.draft?.['llm.api_key'] ?? '');
  const hasKey = useSettingsStore((s) => s.saved?.llm.has_api_key ?? false);
  const error = useSettingsStore((s) => s.errors.fields['llm.api_key']);
  const note = useSettingsStore((s) => s.keyNote);
  const removing = useSettingsStore((s) => s.removingKey);
  const setField = useSettingsStore((s) => s.setField);
  const removeKey = useSettingsStore((s) => s.removeKey);
  const override = useEnvOverride('llm.api_key');
  const id = fieldId('llm.api_key');

  return (
    <FieldRow id={id} label="API key" error={error}>
      <div className="inline-controls">
        <input
          id={id}
          className="text-field"
          type="password"
          aria-label="API key"
          aria-invalid={error ? true : undefined}
          aria-describedby={[describedBy(id, undefined, error, override), 'api-key-state'].filter(Boolean).join(' ')}
          placeholder={hasKey ? '••••••••  (saved)' : 'sk-…'}
          autoComplete="new-password"
          spellCheck={false}
          value={value}
          onChange={(e) => setField('llm.api_key', e.target.value)}
        />
        {hasKey && (
          <button type="button" className="button button-small" aria-label="Remove API key" onClick={() => void removeKey()} disabled={removing}>
            {removing ? 'Removing…' : 'Remove'}
          </button>
        )}
      </div>
      {/* Right under the field, as for the other settings; FieldRow would put it after the key's state. */}
      {override && (
        <p className="field-override" id={overrideId(id)}>
          {override}
        </p>
      )}
      <p id="api-key-state" className={`key-state${note && !note.ok ? ' is-error' : ''}`}>
        {note && !note.ok
          ? note.message
          : hasKey
            ? 'A key is saved. Type a new one to replace it.'
            : note?.ok
              ? note.message
              : 'No key saved — not needed for Ollama or LM Studio.'}
      </p>
    </FieldRow>
  );
}
