import type { ReactNode } from 'react';

// A settings row: label on the left, the control and its hint or error on the right.

export const hintId = (id: string): string => `${id}-hint`;
export const errorId = (id: string): string => `${id}-error`;

export function describedBy(id: string, hint: ReactNode | undefined, error: string | undefined): string | undefined {
  return [error ? errorId(id) : null, hint ? hintId(id) : null].filter(Boolean).join(' ') || undefined;
}

export function FieldRow({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className={`field-row${error ? ' has-error' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="field-control">
        {children}
        <FieldNotes id={id} error={error} hint={hint} />
      </div>
    </div>
  );
}

/** The error (first, as screen readers read it) and hint under a control, ids matching describedBy. */
export function FieldNotes({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {error && (
        <p className="field-error" id={errorId(id)}>
          {error}
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
