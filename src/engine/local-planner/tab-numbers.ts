import type { TabInfo } from '../../protocol/context';
import { ask, CONFIDENCE, ok, type ClauseResult } from './result';
import { NUMBER_PATTERN, parseNumber } from './text';

// Tabs named by number: "tab 3", "tabs 2 and 5", "tabs 2, 4 and 6", "tabs 3-5", "the 3rd tab".
// Numbers are the global indices the user sees in "list tabs".

const N = NUMBER_PATTERN;
const RANGE = `${N}(?:\\s*(?:-|–|to|through|thru)\\s*${N})?`;
/** A list of numbers and ranges joined by commas, "and", "&" or spaces. */
export const NUMBER_LIST = `${RANGE}(?:(?:\\s*,\\s*|\\s+)(?:and\\s+|&\\s+)?${RANGE})*`;

const TAB_WORD = '(?:chrome )?tabs?';
const NUMBER_WORD = '(?:numbers?|no\\.?|nos\\.?|#)?';

/** "tab 3", "tabs 2 and 5", "tab number 3", "the 3rd tab", "the third and fifth tabs", "3rd tab". */
const PATTERNS = [
  new RegExp(`^(?:the )?${TAB_WORD} ${NUMBER_WORD}\\s*(${NUMBER_LIST})$`),
  new RegExp(`^(?:the )?(${NUMBER_LIST}) ${TAB_WORD}$`),
];

/** The numbers of a "tabs …" phrase, or null when it is not one. Ranges expand; duplicates go. */
export function parseTabNumbers(phrase: string): number[] | null {
  // Both patterns need the word "tab"; without it they are not compiled at all (a cold CLI call pays for that).
  if (!phrase.includes('tab')) return null;
  for (const re of PATTERNS) {
    const m = re.exec(phrase);
    if (!m) continue;
    const list = m[1]!;
    const out: number[] = [];
    const rangeRe = new RegExp(`(${N})(?:\\s*(?:-|–|to|through|thru)\\s*(${N}))?`, 'g');
    for (const r of list.matchAll(rangeRe)) {
      const a = parseNumber(r[1]!);
      const b = r[2] ? parseNumber(r[2]) : a;
      if (a === null || b === null || b < a || b - a > 100) return null;
      for (let i = a; i <= b; i++) if (!out.includes(i)) out.push(i);
    }
    return out.length ? out : null;
  }
  return null;
}

/** Tabs by these numbers, or a question naming the numbers that do not exist. */
export function tabsByNumber(numbers: readonly number[], tabs: readonly TabInfo[]): { tabs: TabInfo[] } | { result: ClauseResult } {
  const found = numbers.map((n) => tabs.find((t) => t.index === n));
  const missing = numbers.filter((_, i) => !found[i]);
  if (missing.length === 0) return { tabs: found as TabInfo[] };
  const range = tabs.length === 0 ? 'no tabs are open' : `open tabs are 1–${Math.max(...tabs.map((t) => t.index))}`;
  const which = missing.length === 1 ? `There is no tab ${missing[0]}` : `There are no tabs ${missing.join(', ')}`;
  return { result: ask(`${which} (${range}).`, CONFIDENCE.noMatch) };
}

export const closeTabs = (tabs: readonly TabInfo[]): ClauseResult => ok({ type: 'close_tab', tab_indices: tabs.map((t) => t.index) });
