import type { ContextSnapshot, RunningApp, WindowInfo } from '../../protocol/context';
import { inScreenOrder } from '../resolve-windows';
import { matchApp, runningApp } from './app-matcher';
import { parseNumber } from './text';

// Words that name one window of an app, or several of them (issue 27): "the second xterm",
// "xterm 2", "xterm-1", "the xterm titled logs", "the xterm running vim", "the logs xterm",
// "the other chrome window", "this window", "both terminals", "the two chromium windows", "all
// terminals", "every xterm window", and a window's own title used as its name ("logs"). Counting ("the second") is in
// screen order — left to right, then top to bottom, minimised last — the order the question
// "which one?" lists them in, so "the second xterm" is the one the answer "2" would pick.

export type WindowRef =
  /** `windows`: those meant, in screen order; `all`: every window of the app was asked for. */
  | { said: string; app: RunningApp; windows: WindowInfo[]; all: boolean }
  /** The words name windows of this app but not which (three xterms and "both xterms"). */
  | { said: string; app: RunningApp; ask: string };

const ORDINAL = '(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\\d(?:st|nd|rd|th))';
// Where a title said after the app ends: the words of the place or state that follow it.
const TITLE_END = '(?=$| (?:to|on|onto|in|into|at|and|then|left|right|top|bottom|full|maxi|mini|side|next)\\b)';
const TITLE_VERB = '(?:titled|called|named|labell?ed|with the title|with title|running|showing|that says)';

const TITLE_WORD = /\b(?:the )?([a-z][\w.-]*(?: [a-z][\w.-]*)?) window\b/;

type Make = (m: RegExpExecArray, snap: ContextSnapshot) => WindowRef | null;

/** Each shape: its pattern and how its groups make a reference. Tried in this order. */
const SHAPES: Array<[RegExp, Make]> = [
  [/\b(?:this|the current|the focused|the active|my current) window\b/, (m, snap) => focusedRef(m[0], snap)],
  [new RegExp(`\\b(?:the )?${ORDINAL} (.+)$`), (m, snap) => withApp(m, m[2]!, snap, (said, app) => byOrdinal(said, app, m[1]!))],
  [/\b(?:the )?other (.+)$/, (m, snap) => withApp(m, m[1]!, snap, theOther)],
  [/\b(both|all|every|each|the two)(?: of)?(?: the| my)? (.+)$/, (m, snap) => withApp(m, m[2]!, snap, (said, app) => allOf(said, app, m[1] === 'both' || m[1] === 'the two'), true)],
  [new RegExp(`\\b(?:the )?(.+?)(?: window)? ${TITLE_VERB} (.+?)${TITLE_END}`), (m, snap) => byTitle(m[0], m[1]!, m[2]!, snap)],
  [TITLE_WORD, (m, snap) => titleWord(m[0], m[1]!, snap)],
  [/\b(.+?)(?: window)?(?: number | #|-| )(\d)\b(?!\s*(?:x|by|px|%))/, (m, snap) => byNumber(m[0], m[1]!, Number(m[2]), snap)],
  [/\bthe ([a-z][\w.-]*) ([a-z][\w.-]*)\b/, (m, snap) => titleThenApp(m[0], m[1]!, m[2]!, snap)],
  [/\b(?:the )?([a-z][\w.'-]*?)s\b/, (m, snap) => plural(m[0], m[1]!, snap)],
];

/**
 * The app named by the first one or two words of `rest` (two first: "google chrome"), with a
 * following "window(s)"; `make` gets the words said up to there. Never a tab ("the second chrome tab").
 */
function withApp(m: RegExpExecArray, rest: string, snap: ContextSnapshot, make: (said: string, app: RunningApp) => WindowRef | null, plurals = false): WindowRef | null {
  const words = rest.split(' ');
  for (const k of [2, 1]) {
    if (words.length < k) continue;
    const head = words.slice(0, k).join(' ');
    const app = appOf(head, snap) ?? (plurals ? (appOf(head.replace(/s$/, ''), snap) ?? appOf(head.replace(/es$/, ''), snap)) : null);
    if (!app) continue;
    let used = k;
    if (/^windows?$/.test(words[used] ?? '')) used++;
    if (/^tabs?$/.test(words[used] ?? '')) return null;
    const said = m[0].slice(0, m[0].length - rest.length) + words.slice(0, used).join(' ');
    return make(said, app);
  }
  return null;
}

// A sentence is split and re-read many ways: each clause is looked at once per desk.
const refsSeen = new WeakMap<ContextSnapshot, Map<string, WindowRef | null>>();

/** The first window reference in a clause, or null when it names no window in particular. */
export function findWindowRef(clause: string, snap: ContextSnapshot): WindowRef | null {
  let memo = refsSeen.get(snap);
  if (!memo) refsSeen.set(snap, (memo = new Map()));
  if (!memo.has(clause)) memo.set(clause, firstRef(clause, snap));
  return memo.get(clause)!;
}

function firstRef(clause: string, snap: ContextSnapshot): WindowRef | null {
  // Most desks have no app with several windows: then only "this window" and titles can name one.
  const several = snap.running_apps.some((a) => a.windows.length > 1);
  for (const [i, [re, make]] of SHAPES.entries()) {
    if (i > 0 && !several && re !== TITLE_WORD) continue;
    for (const m of matchesOf(re, clause)) {
      const ref = make(m, snap);
      if (ref) return ref;
    }
  }
  return titleAsName(clause, snap);
}

/** Every match of `re` in `text` from each word's start (a non-global regex finds only the first). */
function* matchesOf(re: RegExp, text: string): Generator<RegExpExecArray> {
  for (let from = 0; from < text.length; ) {
    const m = re.exec(text.slice(from));
    if (!m) return;
    m.index += from;
    yield m;
    const next = text.indexOf(' ', m.index);
    if (next < 0) return;
    from = next + 1;
  }
}

// A clause is tried at many word positions and split points: each phrase is matched once per desk.
const matched = new WeakMap<ContextSnapshot, Map<string, RunningApp | null>>();

/** The one running app these words name, with at least `min` windows. */
function appOf(words: string, snap: ContextSnapshot, min = 2): RunningApp | null {
  const w = words.replace(/^(?:the|my) /, '');
  let memo = matched.get(snap);
  if (!memo) matched.set(snap, (memo = new Map()));
  if (!memo.has(w)) {
    const m = matchApp(w, snap, 'running', { fuzzy: false });
    memo.set(w, m.kind === 'one' ? runningApp(snap, m.name) : null);
  }
  const app = memo.get(w)!;
  return app && app.windows.length >= min ? app : null;
}

const one = (said: string, app: RunningApp, w: WindowInfo): WindowRef => ({ said, app, windows: [w], all: false });

function focusedRef(said: string, snap: ContextSnapshot): WindowRef | null {
  for (const app of snap.running_apps) {
    const w = app.windows.find((x) => x.focused);
    if (w) return one(said, app, w);
  }
  return null;
}

function byOrdinal(said: string, app: RunningApp, ordinal: string): WindowRef | null {
  const listed = inScreenOrder(app.windows);
  const n = ordinal === 'last' ? listed.length : parseNumber(ordinal);
  if (!n) return null;
  if (n > listed.length) return { said, app, ask: `${app.name} has ${listed.length} windows, not ${n}. Which one?` };
  return one(said, app, listed[n - 1]!);
}

const byNumber = (said: string, appWords: string, n: number, snap: ContextSnapshot) => {
  const app = appOf(appWords, snap);
  if (!app || n < 1) return null;
  return n <= app.windows.length ? one(said, app, inScreenOrder(app.windows)[n - 1]!) : { said, app, ask: `${app.name} has ${app.windows.length} windows, not ${n}. Which one?` };
};

/** "the other chrome window": of two, the one not in front (the snapshot lists the most recent first). */
function theOther(said: string, app: RunningApp): WindowRef | null {
  if (app.windows.length > 2) return { said, app, ask: `${app.name} has ${app.windows.length} windows, so "the other one" could be any of several. Which one?` };
  return one(said, app, app.windows[1]!);
}

function allOf(said: string, app: RunningApp, both: boolean): WindowRef {
  if (both && app.windows.length !== 2) return { said, app, ask: `${app.name} has ${app.windows.length} windows. Which two?` };
  return { said, app, windows: inScreenOrder(app.windows), all: true };
}

/** "the terminals", "the xterms": every window of an app with several; only when the word itself is no app. */
function plural(said: string, stem: string, snap: ContextSnapshot): WindowRef | null {
  const app = appOf(stem, snap) ?? appOf(stem.replace(/e$/, ''), snap);
  if (!app || matchApp(`${stem}s`, snap, 'any', { fuzzy: false }).kind !== 'none') return null;
  return { said, app, windows: inScreenOrder(app.windows), all: true };
}


/** The app's windows whose title holds these words (whole words, in order). */
function titled(app: RunningApp, words: string): WindowInfo[] {
  const key = ` ${squashWords(words)} `;
  return key.trim() ? app.windows.filter((w) => ` ${squashWords(w.title)} `.includes(key)) : [];
}

const squashWords = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');

function byTitle(said: string, appWords: string, words: string, snap: ContextSnapshot): WindowRef | null {
  const app = appOf(appWords, snap, 1);
  if (!app) return null;
  const hits = titled(app, words);
  if (hits.length === 1) return one(said, app, hits[0]!);
  // Said as a title but matching none or several: the question, not some other window.
  return { said, app, ask: hits.length ? `${hits.length} ${app.name} windows have "${words}" in their title. Which one?` : `No ${app.name} window has "${words}" in its title. Which one?` };
}

/** "the logs xterm", "the vim terminal": a title word, then the app. */
function titleThenApp(said: string, word: string, appWords: string, snap: ContextSnapshot): WindowRef | null {
  const app = appOf(appWords, snap);
  if (!app || appOf(word, snap, 1)) return null;
  const hits = titled(app, word);
  return hits.length === 1 ? one(said, app, hits[0]!) : null;
}

/** "the logs window": a window of any app whose title holds the words, when exactly one does. */
function titleWord(said: string, words: string, snap: ContextSnapshot): WindowRef | null {
  if (/^(?:this|that|the|other|new|same|whole|entire|current|active|focused|each|every|one)$/.test(words)) return null;
  if (matchApp(words, snap, 'running', { fuzzy: false }).kind !== 'none') return null;
  const hits = snap.running_apps.flatMap((app) => titled(app, words).map((w) => ({ app, w })));
  return hits.length === 1 ? one(said, hits[0]!.app, hits[0]!.w) : null;
}

/**
 * "put xterm-1 in the bottom left quarter": a window's whole title said as a name. Only a title
 * that is no app's name (a default "xterm" title names the app) and only one window has.
 */
function titleAsName(clause: string, snap: ContextSnapshot): WindowRef | null {
  const said = ` ${squashWords(clause)} `;
  let found: WindowRef | null = null;
  for (const app of snap.running_apps) {
    for (const w of app.windows) {
      const t = squashWords(w.title);
      if (t.length < 3 || !said.includes(` ${t} `) || matchApp(t, snap, 'any', { fuzzy: false }).kind !== 'none') continue;
      if (found) return null;
      found = one(titleSpan(clause, w.title), app, w);
    }
  }
  return found;
}

/** The clause's own words for a title ("xterm-1" as typed), for rewriting the clause. */
function titleSpan(clause: string, title: string): string {
  const words = squashWords(title).split(' ');
  const re = new RegExp(`(?:the )?${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\p{L}\\p{N}]+')}(?: window)?`, 'u');
  return re.exec(clause)?.[0] ?? title.toLowerCase();
}
