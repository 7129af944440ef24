import type { Layout } from '../../protocol/window-layouts';
import type { Half } from './placement';

// Where a window should go, as people say it: "left", "the right monitor", "the other
// screen", "the laptop screen", "the left half of the right monitor", "full screen",
// "the middle at 1200x800", "the left third", "top right corner", "monitor 2", "the next display".

export type MonitorWord =
  | 'left' | 'right' | 'main' | 'other' | 'second' | 'middle' | 'laptop' | 'big' | 'small'
  | 'top' | 'bottom' | 'next' | 'previous' | 'portrait'
  | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8';

export type Position =
  /** `named`: said "monitor"/"screen" — on a single monitor that is the monitor, not a half of it. */
  | { kind: 'monitor'; monitor: MonitorWord; named?: boolean }
  | { kind: 'half'; half: Half; monitor: MonitorWord | null }
  | { kind: 'max'; monitor: MonitorWord | null }
  /** `bare`: only "middle"/"centre" was said, which with three monitors names the middle one. */
  | { kind: 'center'; size: [number, number] | null; monitor: MonitorWord | null; bare?: boolean }
  /** A named region the system lays out when the command runs (thirds, corners, sixths, …). */
  | { kind: 'layout'; layout: Layout; monitor: MonitorWord | null };

const MONITOR_WORDS: Record<string, MonitorWord> = {
  left: 'left', leftmost: 'left', right: 'right', rightmost: 'right', main: 'main', primary: 'main',
  other: 'other', next: 'next', previous: 'previous', prev: 'previous', second: 'second', secondary: 'second', external: 'second',
  middle: 'middle', center: 'middle', centre: 'middle', laptop: 'laptop', 'built-in': 'laptop', builtin: 'laptop',
  internal: 'laptop', big: 'big', bigger: 'big', biggest: 'big', large: 'big', larger: 'big', largest: 'big',
  small: 'small', smaller: 'small', smallest: 'small', top: 'top', upper: 'top', bottom: 'bottom', lower: 'bottom',
  '4k': 'big', uhd: 'big', ultrawide: 'big', portrait: 'portrait', vertical: 'portrait', rotated: 'portrait', tall: 'portrait',
};
/** Words that name one monitor by themselves ("on the 4k", "to the portrait"), as "left" does. */
const ALONE_WORDS = new Set(['4k', 'uhd', 'ultrawide', 'portrait', 'vertical']);
/** Words that name a monitor even without "monitor" after them ("chrome left", "to the laptop"). */
const ALONE: ReadonlySet<MonitorWord> = new Set(['left', 'right', 'main', 'other', 'laptop']);

const DIGIT_WORDS: Record<string, string> = { one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8' };
/** "monitor 2", "screen two", "display #3": a monitor by its number. */
const BY_NUMBER = `(?:monitor|screen|display)(?: number| no\\.?)? #?(?:[1-8]|${Object.keys(DIGIT_WORDS).join('|')})`;

const MON = `(${BY_NUMBER}|${Object.keys(MONITOR_WORDS).join('|')})`;
const MON_NOUN = '(?:monitor|screen|display|one|side|monitor screen)';
export const MONITOR_PHRASE = `(?:the |my )?${MON}(?: ${MON_NOUN})?`;
const ON_MONITOR = `(?:on|of|to|in) ${MONITOR_PHRASE}`;

export const SIZE = '(\\d{2,5})\\s*(?:x|×|by)\\s*(\\d{2,5})';

/** "left" → left, "monitor two" → "2"; "center" alone is not a monitor (see parsePosition). */
export function monitorWord(w: string | undefined): MonitorWord | null {
  if (!w) return null;
  if (Object.hasOwn(MONITOR_WORDS, w)) return MONITOR_WORDS[w]!;
  const n = /(\w+)$/.exec(w)?.[1];
  if (!n || !new RegExp(`^${BY_NUMBER}$`).test(w)) return null;
  return (DIGIT_WORDS[n] ?? n) as MonitorWord;
}

const isNumber = (w: MonitorWord) => /^\d$/.test(w);

const THIRDS: Record<string, Layout> = { left: 'first_third', first: 'first_third', center: 'center_third', centre: 'center_third', middle: 'center_third', right: 'last_third', last: 'last_third' };
const TWO_THIRDS: Record<string, Layout> = { left: 'first_two_thirds', first: 'first_two_thirds', right: 'last_two_thirds', last: 'last_two_thirds' };
const ROW: Record<string, 'top' | 'bottom'> = { top: 'top', upper: 'top', bottom: 'bottom', lower: 'bottom' };
const COLUMN: Record<string, 'left' | 'center' | 'right'> = { left: 'left', center: 'center', centre: 'center', middle: 'center', right: 'right' };
const OF_SCREEN = '(?: of (?:the |my )?(?:screen|monitor|display))?';
const TWO_THIRDS_WORDS = '(?:two thirds|two-thirds|2/3|2 thirds)';

const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => Position | null]> = [
  [new RegExp(`^${MON} (${MON_NOUN.slice(3, -1)})$`), (m) => ({ kind: 'monitor', monitor: monitorWord(m[1])!, named: m[2] !== 'side' })],
  [new RegExp(`^${MON}$`), (m) => {
    const w = monitorWord(m[1])!;
    return ALONE.has(w) || ALONE_WORDS.has(m[1]!) ? { kind: 'monitor', monitor: w } : isNumber(w) ? { kind: 'monitor', monitor: w, named: true } : null;
  }],
  [
    new RegExp(`^(left|right|top|bottom) half(?: of (?:the |my )?(?:screen|monitor|display))?(?: ${ON_MONITOR})?$`),
    (m) => ({ kind: 'half', half: m[1] as Half, monitor: monitorWord(m[2]) }),
  ],
  [new RegExp(`^(left|right|top|bottom) (?:side|half|part) ${ON_MONITOR}$`), (m) => ({ kind: 'half', half: m[1] as Half, monitor: monitorWord(m[2]) })],
  [new RegExp(`^(?:full ?screen|full-screen|maximi[sz]ed)(?: ${ON_MONITOR})?$`), (m) => ({ kind: 'max', monitor: monitorWord(m[1]) })],
  [
    new RegExp(`^(left|first|center|centre|middle|right|last) third${OF_SCREEN}(?: ${ON_MONITOR})?$`),
    (m) => ({ kind: 'layout', layout: THIRDS[m[1]!]!, monitor: monitorWord(m[2]) }),
  ],
  [
    new RegExp(`^(?:(left|first|right|last) ${TWO_THIRDS_WORDS}|${TWO_THIRDS_WORDS} (?:on |to |at )?(?:the )?(left|right))${OF_SCREEN}(?: ${ON_MONITOR})?$`),
    (m) => ({ kind: 'layout', layout: TWO_THIRDS[(m[1] ?? m[2])!]!, monitor: monitorWord(m[3]) }),
  ],
  [
    new RegExp(`^(top|upper|bottom|lower)[- ]?(left|right)(?: (?:quarter|corner|quadrant))?${OF_SCREEN}(?: ${ON_MONITOR})?$`),
    (m) => ({ kind: 'layout', layout: `${ROW[m[1]!]}_${m[2]}` as Layout, monitor: monitorWord(m[3]) }),
  ],
  [
    new RegExp(`^(top|upper|bottom|lower)[- ]?(left|center|centre|middle|right) sixth${OF_SCREEN}(?: ${ON_MONITOR})?$`),
    (m) => ({ kind: 'layout', layout: `${ROW[m[1]!]}_${COLUMN[m[2]!]}_sixth` as Layout, monitor: monitorWord(m[3]) }),
  ],
  [
    new RegExp(`^(?:almost|nearly) (?:maximi[sz]ed|full ?screen|full-screen|the whole screen)(?: ${ON_MONITOR})?$`),
    (m) => ({ kind: 'layout', layout: 'almost_maximize', monitor: monitorWord(m[1]) }),
  ],
  [
    new RegExp(`^(?:middle|cent(?:er|re))(?: of (?:the |my )?(?:screen|monitor|display))?(?: ${ON_MONITOR})?(?:\\s+(?:(?:at|with|as|sized|in)\\s+)?${SIZE})?$`),
    (m) => ({
      kind: 'center',
      monitor: monitorWord(m[1]),
      size: m[2] ? [Number(m[2]), Number(m[3])] : null,
      bare: !m[1] && !m[2] && !/ of /.test(m[0]),
    }),
  ],
];

/**
 * Every phrase PATTERNS match has at least one of these words (alone or as part of a hyphenated
 * one, "top-left"); a text without any skips them all. Most clauses are not positions, and V8
 * compiles each of these long patterns at its first use, which every cold CLI call pays.
 */
const POSITION_WORDS: ReadonlySet<string> = new Set([
  ...Object.keys(MONITOR_WORDS),
  ...['monitor', 'screen', 'display', 'half', 'side', 'part', 'full', 'fullscreen', 'maximised', 'maximized', 'first', 'last'],
  ...['third', 'thirds', '2/3', 'quarter', 'corner', 'quadrant', 'sixth', 'almost', 'nearly'],
  ...['topleft', 'topright', 'bottomleft', 'bottomright', 'upperleft', 'upperright', 'lowerleft', 'lowerright'],
]);

function mayBePosition(t: string): boolean {
  return t.split(/\s+/).some((w) => POSITION_WORDS.has(w) || (w.includes('-') && w.split('-').some((part) => POSITION_WORDS.has(part))));
}

/** Without a leading "to the" / "on my". */
const positionPart = (text: string) =>
  text
    .trim()
    .replace(/^(?:over |across |back )?(?:to|on|onto|into|in|at|over)\s+/, '')
    .replace(/^(?:the|my)\s+/, '')
    .trim();

/** `text` after the verb and the app, with or without a leading "to the" / "on my". */
export function parsePosition(text: string): Position | null {
  const t = positionPart(text);
  return mayBePosition(t) ? byPatterns(t) : null;
}

/** parsePosition without the word check (for the test that the check never hides a position). */
export const positionByPatterns = (text: string): Position | null => byPatterns(positionPart(text));

function byPatterns(t: string): Position | null {
  for (const [re, build] of PATTERNS) {
    const m = re.exec(t);
    const pos = m ? build(m) : null;
    if (pos) return pos;
  }
  return null;
}

export interface CenterRequest {
  app: string;
  size: [number, number] | null;
  monitor: MonitorWord | null;
  /** Whether the words said "centred" / "in the middle" (not only a size). */
  centred: boolean;
}

/** "terminal 1200x800", "slack on the big monitor at 1600x1000", "chrome in the middle at 1600x1000". */
export function parseCenter(text: string): CenterRequest | null {
  let t = ` ${text.trim()} `;
  let size: [number, number] | null = null;
  let monitor: MonitorWord | null = null;
  let centred = false;
  t = t.replace(new RegExp(`\\s(?:(?:at|to|with|as|sized|be|into)\\s+)?${SIZE}(?:\\s*(?:pixels|px))?\\s`), (_, w: string, h: string) => {
    size = [Number(w), Number(h)];
    return ' ';
  });
  t = t.replace(/\s(?:and\s+)?(?:cent(?:er|re)(?:e?d)?(?: it)?|(?:in|to) the (?:middle|cent(?:er|re))(?! (?:monitor|screen|display|one|third|sixth)\b)(?: of (?:the |my )?(?:screen|monitor|display))?)\s/, () => {
    centred = true;
    return ' ';
  });
  t = t.replace(new RegExp(`\\s(?:on|to|onto|in) ${MONITOR_PHRASE}\\s`), (_, w: string) => {
    monitor = monitorWord(w);
    return ' ';
  });
  const app = t.trim();
  if (!app || (!size && !centred)) return null;
  return { app, size, monitor, centred };
}
