// What the person can do about a failure, worked out from the outcome's code and words.

export type Fix = { kind: 'launch-chrome' } | { kind: 'text'; text: string };

const CHROME_DOWN = /chrome\b.*\b(not reachable|unreachable|not running|not connected|cannot be reached|could not connect)/i;

export function isChromeProblem(message: string, code?: string): boolean {
  return code === 'chrome_unavailable' || CHROME_DOWN.test(message);
}

export function fixFor(message: string, code?: string): Fix | null {
  if (isChromeProblem(message, code)) return { kind: 'launch-chrome' };
  if (code === 'tab_gone' || code === 'window_gone') return { kind: 'text', text: 'It closed in the meantime. Try again.' };
  if (code === 'windows_unavailable') return { kind: 'text', text: 'Window control is not available here; the status line says why.' };
  return null;
}
