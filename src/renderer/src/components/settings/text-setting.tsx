import type { ReactNode } from 'react';
import type { FieldKey, SettingsDraft } from '../../lib/settings-draft';
import { useSettingsStore } from '../../state/settings-store';
import { describedBy, FieldRow, useEnvOverride } from './field-row';

type StringKey = { [K in FieldKey]: SettingsDraft[K] extends string ? K : never }[FieldKey];

export const fieldId = (key: FieldKey): string => `setting-${key.replace(/[._]/g, '-')}`;

export function TextSetting({
  field,
  label,
  name,
  hint,
  placeholder,
  type = 'text',
}: {
  field: Exclude<StringKey, 'llm.mode' | 'llm.api_key'>;
  /** Visible label (short, inside its group). */
  label: string;
  /** Accessible name (unique in the form). */
  name: string;
  hint?: ReactNode;
  placeholder?: string;
  type?: 'text' | 'url';
}) {
  const value = useSettingsStore((s) => s.draft?.[field] ?? '');
  const error = useSettingsStore((s) => s.errors.fields[field]);
  const setField = useSettingsStore((s) => s.setField);
  const override = useEnvOverride(field);
  const id = fieldId(field);
  return (
    <FieldRow id={id} label={label} hint={hint} error={error} override={override}>
      <input
        id={id}
        className="text-field"
        type={type}
        aria-label={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error, override)}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        value={value}
        onChange={(e) => setField(field, e.target.value)}
      />
    </FieldRow>
  );
}
