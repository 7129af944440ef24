import type { TabInfo } from '../protocol/context';

// How results name things to a person, in one place so every message reads the same.

/** Cut to at most `n` characters, with an ellipsis when cut. */
export const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** Whitespace (newlines too) collapsed to single spaces. */
export const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const tabLabel = (t: Pick<TabInfo, 'index' | 'title' | 'domain'>) =>
  `tab ${t.index} "${t.title || '(untitled)'}"${t.domain ? ` (${t.domain})` : ''}`;

/** Case-insensitive lookup by name, the rule for apps and presets alike. */
export const byName = <T>(items: readonly T[], name: string, nameOf: (t: T) => string): T | undefined =>
  items.find((t) => nameOf(t).toLowerCase() === name.toLowerCase());
