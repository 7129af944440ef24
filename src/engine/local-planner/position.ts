import type { Half } from './placement';

// Where a window should go, as people say it: "left", "the right monitor", "the other
// screen", "the laptop screen", "the left half of the right monitor", "full screen",
// "the middle at 1200x800".

export type MonitorWord = 'left' | 'right' | 'main' | 'other' | 'second' | 'middle' | 'laptop' | 'big' | 'small';

export type Position =
  /** `named`: said "monitor"/"screen" — on a single monitor that is the monitor, not a half of it. */
  | { kind: 'monitor'; monitor: MonitorWord; named?: boolean }
  | { kind: 'half'; half: Half; monitor: MonitorWord | null }
  | { kind: 'max'; monitor: MonitorWord | null }
  /** `bare`: only "middle"/"centre" was said, which with three monitors names the middle one. */
  | { kind: 'center'; size: [number, number] | null; monitor: MonitorWord | null; bare?: boolean };

const MONITOR_WORDS: Record<string, MonitorWord> = {
  left: 'left', leftmost: 'left', right: 'right', rightmost: 'right', main: 'main', primary: 'main',
  other: 'other', next: 'other', second: 'second', secondary: 'second', external: 'second',
  middle: 'middle', center: 'middle', centre: 'middle', laptop: 'laptop', 'built-in': 'laptop', builtin: 'laptop',
  internal: 'laptop', big: 'big', bigger: 'big', biggest: 'big', large: 'big', larger: 'big', largest: 'big',
  small: 'small', smaller: 'small', smallest: 'small',
};
/** Words that name a monitor even without "monitor" after them ("chrome left", "to the laptop"). */
const ALONE: ReadonlySet<MonitorWord> = new Set(['left', 'right', 'main', 'other', 'laptop']);

const MON = `(${Object.keys(MONITOR_WORDS).join('|')})`;
const MON_NOUN = '(?:monitor|screen|display|one|side|monitor screen)';
export const MONITOR_PHRASE = `(?:the |my )?${MON}(?: ${MON_NOUN})?`;
const ON_MONITOR = `(?:on|of|to|in) ${MONITOR_PHRASE}`;

export const SIZE = '(\\d{2,5})\\s*(?:x|×|by)\\s*(\\d{2,5})';

/** "left" → left; "center" alone is not a monitor (see parsePosition). */
export const monitorWord = (w: string | undefined): MonitorWord | null => (w && Object.hasOwn(MONITOR_WORDS, w) ? MONITOR_WORDS[w]! : null);

const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => Position | null]> = [
  [new RegExp(`^${MON} (${MON_NOUN.slice(3, -1)})$`), (m) => ({ kind: 'monitor', monitor: monitorWord(m[1])!, named: m[2] !== 'side' })],
  [new RegExp(`^${MON}$`), (m) => (ALONE.has(monitorWord(m[1])!) ? { kind: 'monitor', monitor: monitorWord(m[1])! } : null)],
  [
    new RegExp(`^(left|right|top|bottom) half(?: of (?:the |my )?(?:screen|monitor|display))?(?: ${ON_MONITOR})?$`),
    (m) => ({ kind: 'half', half: m[1] as Half, monitor: monitorWord(m[2]) }),
  ],
  [new RegExp(`^(left|right|top|bottom) (?:side|half|part) ${ON_MONITOR}$`), (m) => ({ kind: 'half', half: m[1] as Half, monitor: monitorWord(m[2]) })],
  [new RegExp(`^(?:full ?screen|full-screen|maximi[sz]ed)(?: ${ON_MONITOR})?$`), (m) => ({ kind: 'max', monitor: monitorWord(m[1]) })],
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

/** `text` after the verb and the app, with or without a leading "to the" / "on my". */
export function parsePosition(text: string): Position | null {
  const t = text
    .trim()
    .replace(/^(?:over |across |back )?(?:to|on|onto|into|in|at|over)\s+/, '')
    .replace(/^(?:the|my)\s+/, '')
    .trim();
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
  t = t.replace(/\s(?:and\s+)?(?:cent(?:er|re)d?(?: it)?|(?:in|to) the (?:middle|cent(?:er|re))(?! (?:monitor|screen|display|one)\b)(?: of (?:the |my )?(?:screen|monitor|display))?)\s/, () => {
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
