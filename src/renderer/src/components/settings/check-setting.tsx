import type { ReactNode } from 'react';
import type { FieldKey, SettingsDraft } from '../../lib/settings-draft';
import { useSettingsStore } from '../../state/settings-store';
import { describedBy, FieldNotes } from './field-row';
import { fieldId } from './text-setting';

type BoolKey = { [K in FieldKey]: SettingsDraft[K] extends boolean ? K : never }[FieldKey];

export function CheckSetting({ field, label, hint }: { field: BoolKey; label: string; hint?: ReactNode }) {
  const checked = useSettingsStore((s) => s.draft?.[field] ?? false);
  const error = useSettingsStore((s) => s.errors.fields[field]);
  const setField = useSettingsStore((s) => s.setField);
  const id = fieldId(field);
  const described = describedBy(id, hint, error);
  return (
    <div className={`check-row${error ? ' has-error' : ''}`}>
      <input
        id={id}
        type="checkbox"
        className="checkbox"
        checked={checked}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => setField(field, e.target.checked)}
      />
      <div>
        <label htmlFor={id}>{label}</label>
        <FieldNotes id={id} error={error} hint={hint} />
      </div>
    </div>
  );
}
