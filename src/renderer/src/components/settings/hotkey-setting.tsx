import type { HotkeyStatus } from '../../../../protocol/ipc';
import { acceleratorFor } from '../../lib/accelerator';
import { useSettingsStore } from '../../state/settings-store';
import { useStatusStore } from '../../state/status-store';
import { describedBy, FieldRow } from './field-row';
import { fieldId } from './text-setting';

// Press the combination to record it, or type it ("Alt+Space"). Tab and Esc keep their
// usual meaning, so the form stays keyboard-usable.

export function HotkeySetting({ field, label, name, which }: { field: 'hotkeys.launcher' | 'hotkeys.voice'; label: string; name: string; which: 'launcher' | 'voice' }) {
  const value = useSettingsStore((s) => s.draft?.[field] ?? '');
  const savedValue = useSettingsStore((s) => s.saved?.hotkeys[which] ?? '');
  const error = useSettingsStore((s) => s.errors.fields[field]);
  const setField = useSettingsStore((s) => s.setField);
  const status: HotkeyStatus | undefined = useStatusStore((s) => s.status?.hotkeys[which]);
  const id = fieldId(field);
  const problem = status && !status.registered && status.accelerator === savedValue && value === savedValue ? `Not registered${status.error ? `: ${status.error}` : '.'}` : null;
  const hint = problem ? <span className="hint-warning">{problem}</span> : undefined;

  return (
    <FieldRow id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        className="text-field hotkey-field"
        type="text"
        aria-label={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        spellCheck={false}
        autoComplete="off"
        value={value}
        onChange={(e) => setField(field, e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Tab' || e.key === 'Escape') return;
          const accel = acceleratorFor(e);
          if (accel && (e.ctrlKey || e.metaKey || e.altKey || /^F\d+$/.test(e.key))) {
            e.preventDefault();
            setField(field, accel);
          }
        }}
      />
    </FieldRow>
  );
}
