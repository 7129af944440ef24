// The commands typed before, for ↑/↓ in the input, kept across restarts in localStorage.

const KEY = 'deskpilot.recall.v1';
export const RECALL_MAX = 50;

export function loadRecall(): string[] {
  try {
    const raw = window.localStorage.getItem(KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string').slice(-RECALL_MAX) : [];
  } catch {
    return [];
  }
}

export function saveRecall(list: string[]): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(list.slice(-RECALL_MAX)));
  } catch {
    // Storage full or disabled: recall then lasts for this session only.
  }
}

/** Newest last; an earlier copy of the same text moves to the end instead of repeating. */
export function withRecalled(list: string[], text: string): string[] {
  return [...list.filter((x) => x !== text), text].slice(-RECALL_MAX);
}
