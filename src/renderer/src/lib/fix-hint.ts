// What the person can do about a failure, worked out from the outcome's code (never its words).

export type Fix = { kind: 'launch-chrome' } | { kind: 'text'; text: string };

export function fixFor(code?: string): Fix | null {
  if (code === 'chrome_unavailable') return { kind: 'launch-chrome' };
  if (code === 'tab_gone' || code === 'window_gone') return { kind: 'text', text: 'It closed in the meantime. Try again.' };
  if (code === 'windows_unavailable') return { kind: 'text', text: 'Window control is not available here; the status line says why.' };
  return null;
}
