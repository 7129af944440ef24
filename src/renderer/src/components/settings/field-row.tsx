import type { ReactNode } from 'react';
import { envOverrideNote } from '../../lib/env-override';
import type { FieldKey } from '../../lib/settings-draft';
import { useSettingsStore } from '../../state/settings-store';

// A settings row: label on the left, the control and its hint or error on the right; above
// the hint, a note when an environment variable overrides the setting.

export const hintId = (id: string): string => `${id}-hint`;
export const errorId = (id: string): string => `${id}-error`;
export const overrideId = (id: string): string => `${id}-env`;

export function describedBy(id: string, hint: ReactNode | undefined, error: string | undefined, override?: string | null): string | undefined {
  return [error ? errorId(id) : null, override ? overrideId(id) : null, hint ? hintId(id) : null].filter(Boolean).join(' ') || undefined;
}

/** "Set by DESKPILOT_… in the environment; that value is used." when main says so, else null. */
export function useEnvOverride(field: FieldKey): string | null {
  return useSettingsStore((s) => envOverrideNote(field, s.saved?.overridden));
}

export function FieldRow({
  id,
  label,
  hint,
  error,
  override,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  /** The environment overrides this setting: what to say about it. */
  override?: string | null;
  children: ReactNode;
}) {
  return (
    <div className={`field-row${error ? ' has-error' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="field-control">
        {children}
        <FieldNotes id={id} error={error} hint={hint} override={override} />
      </div>
    </div>
  );
}

/** The error (first, as screen readers read it), the override note and hint under a control, ids matching describedBy. */
export function FieldNotes({ id, error, hint, override }: { id: string; error?: string; hint?: ReactNode; override?: string | null }) {
  return (
    <>
      {error && (
        <p className="field-error" id={errorId(id)}>
          {error}
        </p>
      )}
      {override && (
        <p className="field-override" id={overrideId(id)}>
          {override}
        </p>
      )}
      {hint && (
        <p className="field-hint" id={hintId(id)}>
          {hint}
        </p>
      )}
    </>
  );
}
