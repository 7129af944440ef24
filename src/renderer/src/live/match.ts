import type { DeskIndex, IndexApp, IndexTab, IndexWindow } from '../../../protocol/launcher';
import { siteLabel } from './site';

// What the words in the launcher would act on: every tab, app (or each window of an app that
// has several) and preset of the desk index
// scored against the typed words, best first. Synchronous — it runs on every key press, so the
// index is prepared once (lower-cased words per item) and each query is a linear pass over it;
// a query that only narrows the one before (a letter added to a word, a word added) passes over
// the previous query's matches only, which give the same result (see `narrows`).

export type LiveEntity =
  | { kind: 'tab'; key: string; tab: IndexTab; site: string }
  | { kind: 'app'; key: string; app: IndexApp }
  /** One window of a running app that has several: a row each, named by its title. */
  | { kind: 'window'; key: string; app: IndexApp; window: IndexWindow }
  | { kind: 'preset'; key: string; name: string };

export interface Ranked {
  entity: LiveEntity;
  score: number;
}

interface Field {
  /** The field's words, lower case. */
  words: string[];
  /** The same words, space-separated with a space before and after: one native search finds a word or a word's start. */
  padded: string;
  /** The field, lower case: a search finds a piece inside a word. */
  text: string;
  weight: number;
}

interface Prepared {
  entity: LiveEntity;
  fields: Field[];
  /** Kind words that favour this item ("tab", "app", "preset"). */
  kindWords: readonly string[];
  base: number;
}

export interface PreparedIndex {
  id: string;
  items: Prepared[];
  /**
   * The last query ranked on this index: its words and the items that matched them as typed
   * (without the typo pass), and its result. The only state kept between key presses.
   */
  last?: { text: string; limit: number; tokens: string[]; matched: Prepared[]; result: Ranked[] };
}

/**
 * Words that say what to do rather than what to do it to: they need not match anything, so
 * "close youtube" lists the YouTube tabs. (A title containing one still scores for it.)
 */
const COMMAND_WORDS = new Set(
  (
    'switch go goto open show focus bring front back to the a an my me all every any close quit kill exit stop move put send place ' +
    'on onto in into at left right main primary monitor screen display and then please it them this that those these of for ' +
    'with from apply use layout maximize maximise minimize minimise half side other pin unpin mute unmute tab tabs window windows ' +
    'app apps application applications preset presets which what is are'
  ).split(' '),
);
const KIND_WORDS = { tab: ['tab', 'tabs'], app: ['app', 'apps', 'application', 'applications', 'window', 'windows'], preset: ['preset', 'presets', 'layout'] } as const;

const words = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const field = (s: string, weight: number): Field => {
  const w = words(s);
  return { words: w, padded: ` ${w.join(' ')} `, text: s.toLowerCase(), weight };
};

/** "https://github.com/deskpilot/pulls?x" → "/deskpilot/pulls"; nothing for what is not a URL. */
function urlPath(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return '';
  }
}

/** Once per index: the words of every item. */
export function prepareIndex(index: DeskIndex): PreparedIndex {
  const items: Prepared[] = [];
  for (const tab of index.tabs) {
    const site = siteLabel(tab.domain);
    items.push({
      entity: { kind: 'tab', key: `tab:${tab.index}`, tab, site },
      fields: [field(tab.title, 1), field(tab.domain, 0.8), field(urlPath(tab.url), 0.35)],
      kindWords: KIND_WORDS.tab,
      base: tab.active ? 0.02 : 0,
    });
  }
  for (const app of index.apps) {
    if (app.running && app.windows.length > 1) {
      for (const window of app.windows) {
        items.push({
          entity: { kind: 'window', key: `window:${app.name}:${window.id}`, app, window },
          fields: [field(window.title, 1), field(app.name, 0.9)],
          kindWords: KIND_WORDS.app,
          base: 0.05,
        });
      }
      continue;
    }
    items.push({
      entity: { kind: 'app', key: `app:${app.name}`, app },
      fields: [field(app.name, 1), ...app.windows.map((w) => field(w.title, 0.7))],
      kindWords: KIND_WORDS.app,
      // What is open comes before what would have to start.
      base: app.running ? 0.05 : 0,
    });
  }
  for (const name of index.presets) {
    items.push({ entity: { kind: 'preset', key: `preset:${name}`, name }, fields: [field(name, 1)], kindWords: KIND_WORDS.preset, base: 0.04 });
  }
  return { id: index.id, items };
}

/**
 * One typed word against one field: 1 a whole word, 0.8 a word's start, 0.5 inside a word (3
 * letters or more), 0.35 one typo from a word's start (4 letters or more, when `typos`); 0 none.
 */
function wordScore(token: string, f: Field, typos: boolean): number {
  if (f.padded.includes(` ${token} `)) return 1;
  if (f.padded.includes(` ${token}`)) return 0.8;
  if (token.length >= 3 && f.text.includes(token)) return 0.5;
  if (typos && token.length >= 4) for (const w of f.words) if (oneEditPrefix(token, w)) return 0.35;
  return 0;
}

/**
 * `token` is within one edit — a wrong, missing, extra or swapped letter — of the start of
 * `word`, its first letter right (or swapped with the second). No allocations: it runs for
 * every word of every item when the typo pass does.
 */
function oneEditPrefix(t: string, w: string): boolean {
  const n = t.length;
  if (w.length < n - 1) return false;
  let i = 0;
  while (i < n && i < w.length && t.charCodeAt(i) === w.charCodeAt(i)) i++;
  if (i >= n - 1) return true;
  const swapped = t.charCodeAt(i) === w.charCodeAt(i + 1) && t.charCodeAt(i + 1) === w.charCodeAt(i);
  if (i === 0 && !swapped) return false;
  return (
    same(t, i + 1, w, i + 1, n - i - 1) || // a wrong letter
    same(t, i + 1, w, i, n - i - 1) || // a letter too many in what was typed
    same(t, i, w, i + 1, n - i) || // a letter missing from what was typed
    (swapped && same(t, i + 2, w, i + 2, n - i - 2))
  );
}

/** a[ai, ai+len) equals b[bi, bi+len), within b's length. */
function same(a: string, ai: number, b: string, bi: number, len: number): boolean {
  if (bi + len > b.length) return false;
  for (let k = 0; k < len; k++) if (a.charCodeAt(ai + k) !== b.charCodeAt(bi + k)) return false;
  return true;
}

/** The typed words that must each match an item (command words left out), and the kind words said. */
export function queryOf(text: string): { tokens: string[]; optional: string[] } {
  const all = words(text);
  return { tokens: all.filter((w) => !COMMAND_WORDS.has(w)), optional: all.filter((w) => COMMAND_WORDS.has(w)) };
}

/**
 * Items matching every word that is not a command word, best first; nothing when no such word
 * was typed. Typos are forgiven only when the words as typed match almost nothing: that pass
 * looks at every word of every item, and most key presses do not need it.
 */
export function rank(prepared: PreparedIndex, text: string, limit = 50): Ranked[] {
  const last = prepared.last;
  if (last && last.text === text && last.limit === limit) return last.result;
  const q = queryOf(text);
  if (q.tokens.length === 0) {
    prepared.last = { text, limit, tokens: [], matched: prepared.items, result: [] };
    return [];
  }
  const candidates = last && narrows(last.tokens, q.tokens) ? last.matched : prepared.items;
  const exact = pass(candidates, q, false);
  let out = exact.ranked;
  if (out.length < FEW) {
    const seen = new Set(out.map((r) => r.entity.key));
    out = [...out, ...pass(prepared.items, q, true).ranked.filter((r) => !seen.has(r.entity.key))];
  }
  out.sort((a, b) => b.score - a.score || order(a.entity) - order(b.entity));
  const result = out.slice(0, limit);
  prepared.last = { text, limit, tokens: q.tokens, matched: exact.matched, result };
  return result;
}

/**
 * Every item matching the words `next` (as typed, no typos) also matched `prev`: each earlier
 * word is still there, the same or longer. A longer word matches only where the shorter one
 * did — a whole word or a word's start starts with it, a piece inside a word contains it —
 * except that a piece inside a word counts from 3 letters: "git" inside "digit" where "gi"
 * matched nothing, so a word of 1–2 letters must stay that short to narrow. A word that
 * became a command word ("pi" → "pin") drops its condition, so it does not narrow.
 */
export function narrows(prev: readonly string[], next: readonly string[]): boolean {
  if (next.length < prev.length) return false;
  return prev.every((p, i) => {
    const n = next[i]!;
    return n === p || (n.startsWith(p) && (p.length >= 3 || n.length < 3));
  });
}

/** Fewer matches than this, and the typo pass runs. */
const FEW = 3;

/** The items matching every word, scored; `matched`: those items. */
function pass(items: readonly Prepared[], { tokens, optional }: { tokens: string[]; optional: string[] }, typos: boolean): { ranked: Ranked[]; matched: Prepared[] } {
  const out: Ranked[] = [];
  const matchedItems: Prepared[] = [];
  const exact = tokens.join(' ');
  for (const item of items) {
    let sum = 0;
    let matched = true;
    for (const t of tokens) {
      let best = 0;
      for (const f of item.fields) {
        const s = wordScore(t, f, typos) * f.weight;
        if (s > best) best = s;
      }
      if (best === 0) {
        matched = false;
        break;
      }
      sum += best;
    }
    if (!matched) continue;
    let score = sum / tokens.length + item.base;
    // "youtube tabs", "xterm window": the kind said favours that kind.
    if (optional.some((w) => item.kindWords.includes(w))) score += 0.3;
    // A title that is exactly the words typed ("rust docs") comes first.
    if (item.fields[0]!.padded.trim() === exact) score += 0.15;
    out.push({ entity: item.entity, score });
    matchedItems.push(item);
  }
  return { ranked: out, matched: matchedItems };
}

/** Ties: tabs in tab-strip order, then apps and presets as listed. */
function order(e: LiveEntity): number {
  return e.kind === 'tab' ? e.tab.index : e.kind === 'app' || e.kind === 'window' ? 100_000 : 200_000;
}
