import type { RecentItem } from '../../../protocol/context';
import { matchApp } from '../app-matcher';
import type { ClauseContext } from '../clause-context';
import { joinList, quote } from '../messages';
import { askChoosing, ok, type ClauseResult } from '../result';
import { matchTabs } from '../tab-matcher';
import { stripArticles, wordsOf } from '../text';

// Reopening what the user had open: "open the deskpilot project in vs code", "reopen the file
// I had open in gedit", "open my invoice pdf". Only items the snapshot lists count, and the
// rule speaks only when the words say a file or project is meant (a noun like "project" or
// "pdf", a file name with its extension, "the file I had open") and an item matches every
// name word; anything else is left to the app, site and tab rules.

const VERB = /^(?:re-?open|open up|open back up|open|pull up|bring up|bring back|load|resume|continue|go back to|get back to|continue working on|work on)\s+(.+)$/;
const IN_APP = /\s+(?:in|with|using)\s+(.+)$/;

/** What a noun says about the item: a project (folder), a file, or a file of some kind (by extension). */
type Kind = 'project' | 'file';
const PROJECT_NOUNS = new Set(['project', 'projects', 'repo', 'repository', 'workspace', 'folder', 'codebase']);
const FILE_NOUNS = new Set(['file', 'files', 'documents']);
/** Nouns that name a kind of file by its extension. */
const TYPE_NOUNS = new Map<string, readonly string[]>([
  ['pdf', ['pdf']],
  // A "doc" is a word-processor document: "the proposal doc" is not proposal.pdf.
  ['doc', ['doc', 'docx', 'odt', 'rtf']],
  ['document', ['doc', 'docx', 'odt', 'rtf']],
  ['picture', ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'heic', 'bmp']],
  ['image', ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'heic', 'bmp']],
  ['photo', ['png', 'jpg', 'jpeg', 'heic', 'webp']],
  ['screenshot', ['png', 'jpg', 'jpeg']],
  ['spreadsheet', ['xlsx', 'xls', 'ods', 'csv']],
  ['sheet', ['xlsx', 'xls', 'ods', 'csv']],
  ['presentation', ['pptx', 'ppt', 'odp', 'key']],
  ['slides', ['pptx', 'ppt', 'odp', 'key']],
  ['notes', ['md', 'txt', 'org']],
  ['note', ['md', 'txt', 'org']],
  ['markdown', ['md', 'markdown']],
  ['text', ['txt', 'md']],
  ['video', ['mp4', 'mkv', 'webm', 'mov']],
]);
/** "the file I had open", "what I was working on": the newest item (in the app named, if one is). */
const LATEST = /\b(?:i (?:had|have|was|were) (?:open|opened|editing|working on|using|looking at|reading)|i (?:opened|edited|used|closed)|(?:last|latest|recent|previous|most recent)(?: one)?)\b/;
const NOISE = new Set(['i', 'had', 'have', 'was', 'open', 'opened', 'editing', 'working', 'on', 'using', 'looking', 'at', 'reading', 'edited', 'used', 'closed', 'last', 'latest', 'recent', 'recently', 'previous', 'most', 'one', 'of', 'for', 'from', 'again', 'back', 'up', 'called', 'named']);

const baseName = (p: string) => p.replace(/[/\\]+$/, '').split(/[/\\]/).pop() ?? p;
const extOf = (p: string) => /\.([a-z0-9]{1,5})$/i.exec(baseName(p))?.[1]?.toLowerCase() ?? null;

/** The words an item answers to: its name's words (with and without the extension) and its folder's name. */
function itemWords(r: RecentItem): Set<string> {
  const parts = r.path.replace(/[/\\]+$/, '').split(/[/\\]/).filter(Boolean);
  const name = parts[parts.length - 1] ?? '';
  const parent = parts[parts.length - 2] ?? '';
  return new Set([...wordsOf(name), ...wordsOf(parent), wordsOf(name).join(''), name.toLowerCase()]);
}

interface Wanted {
  kind: Kind | null;
  /** Extensions a type noun or a typed file name allows; null: any. */
  exts: readonly string[] | null;
  latest: boolean;
  names: string[];
}

/** The name words of an object that says no kind ("my thesis draft", "the cost report from october"). */
function namesOnly(object: string): Wanted {
  const names = wordsOf(stripArticles(object)).filter((w) => !NOISE.has(w) && !['the', 'my', 'a', 'an', 'that', 'this', 'from'].includes(w));
  return { kind: null, exts: null, latest: false, names };
}

function wanted(object: string): Wanted | null {
  const words = wordsOf(stripArticles(object));
  let kind: Kind | null = null;
  let exts: readonly string[] | null = null;
  const names: string[] = [];
  for (const w of words) {
    if (PROJECT_NOUNS.has(w)) kind = 'project';
    else if (FILE_NOUNS.has(w)) kind ??= 'file';
    else if (TYPE_NOUNS.has(w) && (w !== 'notes' || names.length > 0 || kind !== null)) {
      kind = 'file';
      exts = TYPE_NOUNS.get(w)!;
      // "pdf", "notes" can be part of the name too ("standup notes"); checked both ways below.
      names.push(w);
    } else if (!NOISE.has(w) && !['the', 'my', 'a', 'an', 'that', 'this'].includes(w)) names.push(w);
  }
  // A typed file name ("standup.md") says file by itself.
  const typedFile = /\b[\w-]+\.[a-z0-9]{1,5}\b/i.test(object) && !/\.(?:com|org|net|io|dev|app|ai|co)\b/i.test(object);
  if (typedFile) kind ??= 'file';
  const latest = LATEST.test(object);
  if (!kind && !latest) return null;
  return { kind, exts, latest, names };
}

/** A word said for a word of the name, or its short form ("october" for "oct", "4412" for "4412"). */
const sameWord = (said: string, words: Set<string>) => words.has(said) || (said.length >= 4 && [...words].some((w) => w.length >= 3 && said.startsWith(w)));

function matches(r: RecentItem, w: Wanted): boolean {
  const words = itemWords(r);
  const ext = extOf(r.path);
  return w.names.every((n) => sameWord(n, words) || (w.exts !== null && TYPE_NOUNS.get(n) === w.exts && ext !== null && w.exts.includes(ext)));
}

/** The installed app a phrase names: as matchApp finds it, or by the first words of one name only ("libreoffice" → "LibreOffice Writer"). */
function appToOpenIn(phrase: string, ctx: ClauseContext): string | null {
  const found = matchApp(phrase, ctx.snap, 'any', { fuzzy: false });
  if (found.kind === 'one') return ctx.snap.installed_apps.some((a) => a.name === found.name) ? found.name : null;
  const said = wordsOf(phrase);
  const leading = ctx.snap.installed_apps.filter((a) => {
    const name = wordsOf(a.name);
    return said.length < name.length && said.every((w, i) => name[i] === w);
  });
  return leading.length === 1 ? leading[0]!.name : null;
}

/**
 * A name said without a kind ("open the postmortem") is a recent file or project only when
 * nothing else answers to it: no app, no open tab, no saved set.
 */
function onlyRecent(object: string, ctx: ClauseContext): boolean {
  const phrase = stripArticles(object);
  if (matchApp(phrase, ctx.snap, 'any').kind !== 'none') return false;
  if (ctx.snap.sources.chrome.ok && matchTabs(phrase, ctx.snap.tabs).tier !== 'none') return false;
  const words = wordsOf(phrase);
  return !(ctx.snap.tab_collections ?? []).some((s) => words.every((w) => wordsOf(s).includes(w)));
}

export function openRecentRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const files = ctx.snap.recent_files ?? [];
  const projects = ctx.snap.recent_projects ?? [];
  if (!files.length && !projects.length) return null;
  const m = VERB.exec(clause);
  if (!m) return null;
  let object = m[1]!.trim();
  // "in vs code": an installed app to open it in.
  let app: string | null = null;
  const inApp = IN_APP.exec(object);
  if (inApp) {
    app = appToOpenIn(stripArticles(inApp[1]!), ctx);
    if (!app) return null;
    object = object.slice(0, inApp.index).trim();
  }
  // An app to open it in says a file or project is meant; so does a name nothing else has.
  const w = wanted(object) ?? (app || onlyRecent(object, ctx) ? namesOnly(object) : null);
  if (!w) return null;
  // "the file I had open in gedit": the app says which file, and opens it again.
  const pool = (w.kind === 'project' ? projects : w.kind === 'file' ? files : [...files, ...projects]).filter(
    (r) => !(w.latest && app && !w.names.length) || r.app === app,
  );
  const hits = w.names.length ? pool.filter((r) => matches(r, w)) : w.latest ? pool.slice(0, 1) : [];
  // A type noun alone ("open my pdf") matches by extension.
  const typed = !hits.length && w.exts && w.names.every((n) => TYPE_NOUNS.has(n)) ? pool.filter((r) => w.exts!.includes(extOf(r.path) ?? '')) : hits;
  if (typed.length === 0) return null;
  const open = (r: RecentItem): ClauseResult => ok({ type: 'open_recent', path: r.path, ...(app ? { app_name: app } : {}) });
  if (typed.length === 1 || w.latest) return open(typed[0]!);
  const names = typed.slice(0, 8).map((r) => r.path);
  return askChoosing(
    `Which one: ${joinList(names.map(quote), 'or')}?`,
    typed.slice(0, 8).map((r) => ({ label: baseName(r.path), result: open(r) })),
  );
}
