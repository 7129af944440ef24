import type { DeskIndex, IndexApp, IndexTab } from '../../../protocol/launcher';
import { siteLabel } from './site';

// What the words in the launcher would act on: every tab, app and preset of the desk index
// scored against the typed words, best first. Pure and synchronous — it runs on every key
// press, so the index is prepared once (lower-cased words per item) and each query is a
// linear pass over it.

export type LiveEntity =
  | { kind: 'tab'; key: string; tab: IndexTab; site: string }
  | { kind: 'app'; key: string; app: IndexApp }
  | { kind: 'preset'; key: string; name: string };

export interface Ranked {
  entity: LiveEntity;
  score: number;
}

interface Field {
  /** The field's words, lower case. */
  words: string[];
  /** The whole field, lower case (for matches across word boundaries: "r/type"). */
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
const field = (s: string, weight: number): Field => ({ words: words(s), text: s.toLowerCase(), weight });

/** Once per index: the words of every item. */
export function prepareIndex(index: DeskIndex): PreparedIndex {
  const items: Prepared[] = [];
  for (const tab of index.tabs) {
    const site = siteLabel(tab.domain);
    let path: string;
    try {
      path = decodeURIComponent(new URL(tab.url).pathname);
    } catch {
      path = '';
    }
    items.push({
      entity: { kind: 'tab', key: `tab:${tab.index}`, tab, site },
      fields: [field(tab.title, 1), field(tab.domain, 0.8), field(path, 0.35)],
      kindWords: KIND_WORDS.tab,
      base: tab.active ? 0.02 : 0,
    });
  }
  for (const app of index.apps) {
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

/** One typed word against one field: 1 a whole word, 0.8 a word's start, 0.5 inside, 0.35 one typo away; 0 no match. */
function wordScore(token: string, f: Field): number {
  let best = 0;
  for (const w of f.words) {
    if (w === token) return 1;
    if (w.startsWith(token)) best = Math.max(best, 0.8);
    else if (token.length >= 3 && w.includes(token)) best = Math.max(best, 0.5);
    else if (token.length >= 4 && best < 0.35 && oneEditPrefix(token, w)) best = 0.35;
  }
  if (best === 0 && token.length >= 2 && f.text.includes(token)) best = 0.45;
  return best;
}

/** `token` is within one edit (a wrong, missing, extra or swapped letter) of the start of `word`. */
function oneEditPrefix(token: string, word: string): boolean {
  const n = token.length;
  return [n, n - 1, n + 1].some((l) => l > 0 && l <= word.length && withinOneEdit(token, word.slice(0, l)));
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return true;
  return (
    a.slice(i + 1) === b.slice(i + 1) ||
    a.slice(i + 1) === b.slice(i) ||
    a.slice(i) === b.slice(i + 1) ||
    (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2))
  );
}

/** The typed words that must each match an item (command words left out), and the kind words said. */
export function queryOf(text: string): { tokens: string[]; optional: string[] } {
  const all = words(text);
  return { tokens: all.filter((w) => !COMMAND_WORDS.has(w)), optional: all.filter((w) => COMMAND_WORDS.has(w)) };
}

/** Items matching every word that is not a command word, best first; nothing when no such word was typed. */
export function rank(prepared: PreparedIndex, text: string, limit = 50): Ranked[] {
  const { tokens, optional } = queryOf(text);
  if (tokens.length === 0) return [];
  const out: Ranked[] = [];
  for (const item of prepared.items) {
    let sum = 0;
    let matched = true;
    for (const t of tokens) {
      let best = 0;
      for (const f of item.fields) {
        const s = wordScore(t, f) * f.weight;
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
    if (item.fields[0]!.text.trim() === tokens.join(' ')) score += 0.15;
    out.push({ entity: item.entity, score });
  }
  out.sort((a, b) => b.score - a.score || order(a.entity) - order(b.entity));
  return out.slice(0, limit);
}

/** Ties: tabs in tab-strip order, then apps and presets as listed. */
function order(e: LiveEntity): number {
  return e.kind === 'tab' ? e.tab.index : e.kind === 'app' ? 100_000 : 200_000;
}
