import type { ContextSnapshot } from '../../protocol/context';
import { fuzzyPick } from './fuzzy';
import { squash, wordsOf } from './text';

// Which app a phrase names. The protocol wants the exact name from the snapshot, so every
// answer is a name copied from running_apps / installed_apps. Tiers, strongest first:
//   exact — same letters and digits ("vscode" = "VS Code", "xterm" = "XTerm");
//   word  — the phrase is the name's last word(s) ("chrome" ~ "Google Chrome", not "Chromium";
//           "google" is not Google Chrome);
//   kind  — what the app is, by its .desktop generic name or keywords ("terminal" ~ XTerm,
//           "browser" ~ Chromium); of several, the one running, else the system's default;
//   alias — what people call an app ("vs code" ~ "Code", "the editor" ~ Code, Cursor …);
//   fuzzy — a slip ("spotfy"), strict.
// An exact hit wins outright: "code" is "Code" even when "Cursor" and "Xcode" exist.

export type AppScope = 'running' | 'any';
export type AppTier = 'exact' | 'word' | 'kind' | 'alias' | 'fuzzy';
export type AppMatch = { kind: 'one'; name: string; tier: AppTier } | { kind: 'many'; names: string[]; tier: AppTier } | { kind: 'none' };

// Squashed phrase → squashed names it may mean. Only names present in the snapshot count.
const APP_ALIASES = new Map<string, string[]>([
  // Chrome's relatives answer to "chrome" when Google Chrome itself is not installed (the word tier finds it first when it is).
  ['chrome', ['googlechrome', 'chromium', 'chromiumbrowser', 'googlechromebeta', 'googlechromedev', 'googlechromecanary', 'brave', 'bravebrowser', 'microsoftedge', 'vivaldi']],
  ['googlechrome', ['chromium', 'chromiumbrowser', 'brave', 'bravebrowser', 'microsoftedge', 'vivaldi']],
  ['vscode', ['code', 'visualstudiocode', 'codeoss', 'vscodium']],
  ['vsc', ['code', 'visualstudiocode']],
  ['visualstudiocode', ['code', 'codeoss']],
  ['code', ['visualstudiocode']],
  ['terminal', ['terminal', 'gnometerminal', 'xterm', 'konsole', 'iterm', 'iterm2', 'windowsterminal', 'xfce4terminal', 'terminator', 'alacritty', 'kitty', 'wezterm', 'ghostty']],
  ['term', ['terminal', 'gnometerminal', 'xterm', 'konsole', 'iterm', 'iterm2', 'windowsterminal', 'xfce4terminal']],
  ['iterm', ['iterm2']],
  ['firefox', ['mozillafirefox', 'firefoxdeveloperedition']],
  ['edge', ['microsoftedge']],
  ['word', ['microsoftword']],
  ['excel', ['microsoftexcel']],
  ['powerpoint', ['microsoftpowerpoint']],
  ['outlook', ['microsoftoutlook']],
  ['teams', ['microsoftteams']],
  ['settings', ['systemsettings', 'systempreferences', 'gnomecontrolcenter']],
  ['calc', ['calculator', 'gnomecalculator', 'librecalc']],
  ['files', ['finder', 'nautilus', 'fileexplorer', 'thunar', 'dolphin']],
  ['filemanager', ['files', 'finder', 'nautilus', 'fileexplorer', 'thunar', 'dolphin']],
  ['editor', ['code', 'visualstudiocode', 'cursor', 'vscodium', 'codeoss', 'sublimetext', 'zed', 'texteditor', 'textedit', 'gedit', 'kate', 'webstorm', 'intellijidea', 'neovim', 'vim', 'emacs']],
  ['codeeditor', ['code', 'visualstudiocode', 'cursor', 'vscodium', 'codeoss', 'sublimetext', 'zed', 'webstorm', 'intellijidea']],
  ['ide', ['code', 'visualstudiocode', 'cursor', 'vscodium', 'webstorm', 'intellijidea', 'xcode', 'androidstudio']],
  ['browser', ['googlechrome', 'chromium', 'firefox', 'mozillafirefox', 'safari', 'microsoftedge', 'brave', 'bravebrowser', 'arc', 'opera', 'vivaldi']],
  ['webbrowser', ['googlechrome', 'chromium', 'firefox', 'mozillafirefox', 'safari', 'microsoftedge', 'brave', 'bravebrowser', 'arc', 'opera', 'vivaldi']],
  ['explorer', ['fileexplorer']],
]);

interface Candidate {
  name: string;
  key: string;
  running: boolean;
  /** Its installed entry's generic name and keywords, squashed ("terminal", "webbrowser", "shell"). */
  kinds: string[];
  /** The system's default for something (a terminal, a browser). */
  isDefault: boolean;
}

function candidates(snap: ContextSnapshot, scope: AppScope): Candidate[] {
  const installed = new Map(snap.installed_apps.map((a) => [a.name.toLowerCase(), a]));
  const seen = new Map<string, Candidate>();
  const add = (name: string, running: boolean) => {
    const lower = name.toLowerCase();
    if (!name.trim() || seen.has(lower)) return;
    const entry = installed.get(lower);
    const kinds = [entry?.generic_name, ...(entry?.keywords ?? [])].filter((k): k is string => !!k).map(squash).filter(Boolean);
    seen.set(lower, { name, key: squash(name), running, kinds, isDefault: (entry?.default_for?.length ?? 0) > 0 });
  };
  for (const a of snap.running_apps) add(a.name, true);
  if (scope === 'any') for (const a of snap.installed_apps) add(a.name, false);
  return [...seen.values()];
}

/**
 * Several names for one thing: prefer the one running, if exactly one is — that is the one in
 * front of the user; for a kind of app ("the terminal"), else the system's default.
 */
function settle(found: Candidate[], tier: AppTier): AppMatch {
  const unique = [...new Map(found.map((c) => [c.name, c])).values()];
  if (unique.length === 0) return { kind: 'none' };
  if (unique.length === 1) return { kind: 'one', name: unique[0]!.name, tier };
  const running = unique.filter((c) => c.running);
  if (running.length === 1 && tier !== 'fuzzy') return { kind: 'one', name: running[0]!.name, tier };
  const defaults = (running.length ? running : unique).filter((c) => c.isDefault);
  if (tier === 'kind' && defaults.length === 1) return { kind: 'one', name: defaults[0]!.name, tier };
  return { kind: 'many', names: unique.map((c) => c.name), tier };
}

/** "XClock" → "X Clock", "VSCodium" → "VS Codium": the words inside a name written as one. */
const camelWords = (name: string) => name.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');

/**
 * A name's words that can stand for it: a run ending with its last word ("chrome" for "Google
 * Chrome", "studio code"), trailing version numbers aside. "google" alone is not Google Chrome.
 */
function namesIt(words: string[], name: string): boolean {
  const hay = wordsOf(name);
  while (hay.length > 1 && /^\d+$/.test(hay[hay.length - 1]!)) hay.pop();
  if (words.length === 0 || words.length > hay.length) return false;
  const tail = hay.slice(hay.length - words.length);
  return words.every((w, i) => tail[i] === w);
}

export interface AppMatchOptions {
  fuzzy?: boolean;
}

export function matchApp(phrase: string, snap: ContextSnapshot, scope: AppScope, opts: AppMatchOptions = {}): AppMatch {
  const q = squash(phrase);
  if (!q) return { kind: 'none' };
  const pool = candidates(snap, scope);

  const exact = pool.filter((c) => c.key === q);
  if (exact.length) return settle(exact, 'exact');

  const words = wordsOf(phrase);
  const byWord = pool.filter((c) => namesIt(words, c.name));
  if (byWord.length) return settle(byWord, 'word');
  // "clock" is the last word of "XClock", written as one.
  const byInnerWord = pool.filter((c) => camelWords(c.name) !== c.name && namesIt(words, camelWords(c.name)));
  if (byInnerWord.length) return settle(byInnerWord, 'word');

  // "the editor": the apps whose entry says so, and the apps people call that (Code's entry may not say "editor").
  const aliasKeys = APP_ALIASES.get(q);
  const byOwnKind = pool.filter((c) => c.kinds.includes(q));
  if (byOwnKind.length) return settle([...byOwnKind, ...pool.filter((c) => aliasKeys?.includes(c.key) && c.kinds.length > 0)], 'kind');

  if (aliasKeys) {
    const hits = pool.filter((c) => aliasKeys.includes(c.key));
    if (hits.length) return settle(hits, 'alias');
  }

  if (opts.fuzzy === false) return { kind: 'none' };
  // A slip in the name, or in the word that can stand for it (see namesIt).
  const keys = pool.flatMap((c) => {
    const words = wordsOf(c.name).filter((w) => !/^\d+$/.test(w));
    const last = words.length > 1 ? words[words.length - 1]! : null;
    return [{ value: c, key: c.name.toLowerCase() }, ...(last && last.length >= 4 ? [{ value: c, key: last }] : [])];
  });
  const fuzzy = fuzzyPick(phrase, keys);
  if (fuzzy.kind === 'one') return { kind: 'one', name: fuzzy.value.name, tier: 'fuzzy' };
  if (fuzzy.kind === 'many') return settle(fuzzy.values, 'fuzzy');
  return { kind: 'none' };
}

/** Whether a name is an app that is running right now (case-insensitive). */
export function runningApp(snap: ContextSnapshot, name: string) {
  return snap.running_apps.find((a) => a.name.toLowerCase() === name.toLowerCase()) ?? null;
}
