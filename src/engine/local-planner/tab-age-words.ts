import type { AgePick } from '../tab-age';
import { NUMBER_PATTERN, parseNumber } from './text';

// Tab age in words: "older than a week", "I haven't touched in 3 days", "not used today",
// "my 5 oldest tabs". The words come off the tab phrase, leaving what names the tabs ("youtube
// tabs", "" for all), and become the protocol's age fields; the resolver then picks the tabs.

const N = `(${NUMBER_PATTERN}|a|an)`;
const UNIT = '(hour|day|week|month|year)s?';
const HOURS: Record<string, number> = { hour: 1, day: 24, week: 168, month: 720, year: 8760 };
const NOT = "(?:i |you )?(?:have not|havent|did not|didnt|hadnt|had not|not|never)(?: been)?";
const USED = '(?:used|touched|opened|looked at|visited|viewed|read|been (?:to|on)|clicked(?: on)?|gone to)';
const THAT = '(?:(?:that|which) (?:are |were |i |you )?|i |you )?';

const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => AgePick | null]> = [
  [new RegExp(`^(.*?)\\s*${THAT}(?:are |were )?older than ${N} ${UNIT}$`), (m) => hours(m[2]!, m[3]!)],
  [new RegExp(`^(.*?)\\s*${THAT}${NOT} ${USED}(?: (?:in|for|within))?(?: the (?:last|past))? ${N} ${UNIT}$`), (m) => hours(m[2]!, m[3]!)],
  [new RegExp(`^(.*?)\\s*${THAT}(?:not used|unused|untouched|idle|inactive|not touched|not opened|not visited)(?: (?:in|for|within))?(?: the (?:last|past))? ${N} ${UNIT}$`), (m) => hours(m[2]!, m[3]!)],
  [new RegExp(`^(.*?)\\s*${THAT}${NOT} ${USED}(?: (?:in|for))? (?:a )?(?:whole |entire )?(?:week|day|month)$`), () => null],
  [new RegExp(`^(.*?)\\s*${THAT}(?:${NOT} ${USED}|not used|unused|untouched|not touched|not opened)(?: (?:at all|yet))? today$`), () => ({ unused_today: true })],
];

function hours(count: string, unit: string): AgePick | null {
  const n = count === 'a' || count === 'an' ? 1 : parseNumber(count);
  const per = HOURS[unit];
  if (n === null || n < 1 || per === undefined) return null;
  return { unused_for_hours: n * per };
}

/** The age words at the end of a tab phrase, and the phrase without them; null when it has none. */
/** Every pattern above ends with one of these words; V8 compiles a pattern at its first use, which a cold CLI call pays. */
const LAST_WORDS = new Set(['hour', 'hours', 'day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'today']);

export function splitAge(phrase: string): { rest: string; age: AgePick } | null {
  if (!LAST_WORDS.has(phrase.slice(phrase.lastIndexOf(' ') + 1))) return null;
  for (const [re, pick] of PATTERNS) {
    const m = re.exec(phrase);
    if (!m) continue;
    const age = pick(m);
    if (!age) continue;
    return { rest: m[1]!.trim(), age };
  }
  return null;
}

const OLDEST = new RegExp(`^(?:the |my )?(?:${N} )?oldest(?: (?:open ))?(?: tabs?)?$|^(?:the |my )?(?:${N} )?(?:tabs? )?(?:i|you) (?:have|havent|have not) (?:used|touched) (?:the )?longest$`);

/** "my oldest tabs", "the 3 oldest tabs": how many (null when no number was said). */
export function oldestCount(phrase: string): { count: number | null } | null {
  const m = OLDEST.exec(phrase);
  if (!m) return null;
  const said = m[1] ?? m[2];
  if (!said) return { count: null };
  const n = said === 'a' || said === 'an' ? 1 : parseNumber(said);
  return n === null || n < 1 ? null : { count: n };
}
