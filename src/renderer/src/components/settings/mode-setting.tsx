import { useSettingsStore } from '../../state/settings-store';
import { describedBy, FieldRow, useEnvOverride } from './field-row';
import { fieldId } from './text-setting';

const HINT = 'Strict works with OpenAI and most servers; choose JSON object for small local models that fumble strict schemas.';

export function ModeSetting() {
  const value = useSettingsStore((s) => s.draft?.['llm.mode'] ?? 'strict');
  const error = useSettingsStore((s) => s.errors.fields['llm.mode']);
  const setField = useSettingsStore((s) => s.setField);
  const override = useEnvOverride('llm.mode');
  const id = fieldId('llm.mode');
  return (
    <FieldRow id={id} label="Output mode" hint={HINT} error={error} override={override}>
      <span className="select-wrap">
        <select
        id={id}
        className="select-field"
        aria-label="LLM mode"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, HINT, error, override)}
        value={value}
        onChange={(e) => setField('llm.mode', e.target.value === 'json_object' ? 'json_object' : 'strict')}
      >
        <option value="strict">Strict JSON schema</option>
        <option value="json_object">JSON object</option>
        </select>
      </span>
    </FieldRow>
  );
}
