import type { Command } from '../../protocol/commands';
import type { RecentItem, TabInfo } from '../../protocol/context';
import { matchApp, runningApp } from './app-matcher';
import type { ClauseContext } from './clause-context';
import { joinList, quote, tabChoice } from './messages';
import { askChoosing, MAX_CHOICES, ok, type ClauseResult } from './result';
import { titleNames } from './switch-target';
import { matchTabs } from './tab-matcher';
import { squash, stripArticles, wordsOf } from './text';

// "calendar", "open the budget slides", "go to my thesis draft", "open 4412": a name said with
// no word for what kind of thing it is may fit an open tab, an app, a recent file or project
// and a saved set of tabs at once. The rule that answered picked one kind; when another kind
// also fits, the matcher asks, offering each (issue 26: "it never guesses"). A word that says
// the kind at the end ("… tab", "… app", "… file", "… pdf", "… tabs") or an app to open it in
// settles it, and then the rule's answer stands.

type Kind = 'tab' | 'app' | 'recent' | 'set';

interface Reading {
  kind: Kind;
  label: string;
  commands: Command[];
}

// Verbs that bring something up whatever it is; "launch", "close", "move" say the kind themselves.
const VERB = /^(?:open up|open|re-?open|go back to|go to|switch to|switch over to|show me|bring up|pull up|take me to|jump to|load|resume)\s+(.+)$/;
const KIND_WORDS = /\s(?:tab|tabs|page|site|website|app|application|program|window|file|files|folder|project|pdf|document|set|collection|session|saved tabs)$/;
/** Words that say whose or which, never what. */
const NOISE = new Set(['the', 'my', 'our', 'a', 'an', 'that', 'this', 'those', 'these', 'i', 'was', 'had', 'editing', 'working', 'on', 'open', 'again']);

const KIND_OF: Partial<Record<Command['type'], Kind>> = { switch_tab: 'tab', focus_app: 'app', open_recent: 'recent', restore_tabs: 'set' };

const baseName = (p: string) => p.replace(/[/\\]+$/, '').split(/[/\\]/).pop() ?? p;

function recentWords(r: RecentItem): Set<string> {
  const name = baseName(r.path);
  return new Set([...wordsOf(name), wordsOf(name).join('')]);
}

/**
 * Whether a tab is the thing itself rather than a page about it: a part of its title is the
 * name ("Study mix | Spotify", "Discord | #frontend", "Google Calendar - …"), or the app is not
 * even running while its site is open ("Autumn Sale - Steam Store"). "Keyboard Shortcuts |
 * Cursor Docs" is about the running Cursor, not another Cursor.
 */
const tabIsTheThing = (phrase: string, t: TabInfo, appRunning: boolean): boolean => titleNames(phrase, t) || !appRunning;

/** `appChosen`: the app the rule answered with, if it did (found perhaps by an alias: "vs code"). */
function readings(words: string[], phrase: string, ctx: ClauseContext, switching: boolean, appChosen: string | null): Reading[] {
  const snap = ctx.snap;
  const out: Reading[] = [];
  const app = matchApp(phrase, snap, 'any', { fuzzy: false });
  const appFits = app.kind === 'one' && (app.tier === 'exact' || app.tier === 'word');
  const appName = appChosen ?? (appFits ? app.name : null);
  if (snap.sources.chrome.ok) {
    const tabs = matchTabs(phrase, snap.tabs, { fuzzy: false });
    const running = appName !== null && runningApp(snap, appName) !== null;
    for (const t of tabs.tier === 'none' ? [] : tabs.tabs) {
      if (appName && !tabIsTheThing(phrase, t, running)) continue;
      out.push({ kind: 'tab', label: tabChoice(t), commands: [{ type: 'switch_tab', tab_index: t.index }] });
    }
  }
  if (appFits) out.push({ kind: 'app', label: app.name, commands: [{ type: 'focus_app', app_name: app.name }] });
  // Switching is between things already open: a recent file or a saved set is not.
  if (switching) return out;
  for (const r of [...(snap.recent_files ?? []), ...(snap.recent_projects ?? [])]) {
    const have = recentWords(r);
    // Against an app of that name, only a file named just that ("slack-export.zip" is no other "slack").
    const whole = squash(baseName(r.path).replace(/\.[a-z0-9]{1,5}$/i, '')) === words.join('');
    if (words.every((w) => have.has(w)) && (!appName || whole)) out.push({ kind: 'recent', label: baseName(r.path), commands: [{ type: 'open_recent', path: r.path }] });
  }
  if (snap.sources.chrome.ok) {
    for (const set of snap.tab_collections ?? []) {
      const have = new Set(wordsOf(set));
      if (words.every((w) => have.has(w))) out.push({ kind: 'set', label: `saved set "${set}"`, commands: [{ type: 'restore_tabs', name: set }] });
    }
  }
  return out;
}

const describe = (r: Reading) =>
  r.kind === 'tab' ? r.label : r.kind === 'app' ? `the app ${quote(r.label)}` : r.kind === 'recent' ? `the recent ${quote(r.label)}` : r.label;

/**
 * The rule's answer, or a question when the words fit things of another kind too. Only an
 * answer that brings one thing up is weighed (a switch, a focus, a reopened file or set).
 */
export function weighOtherReadings(clause: string, result: ClauseResult | null, ctx: ClauseContext): ClauseResult | null {
  if (result?.kind !== 'ok' || result.commands.length !== 1) return result;
  const chosen = result.commands[0]!;
  const kind = KIND_OF[chosen.type];
  if (!kind || (chosen.type === 'open_recent' && chosen.app_name)) return result;
  const object = VERB.exec(clause)?.[1] ?? clause;
  if (KIND_WORDS.test(` ${object}`)) return result;
  const phrase = stripArticles(object);
  const words = wordsOf(phrase).filter((w) => !NOISE.has(w));
  if (!words.length) return result;
  const found = readings(words, phrase, ctx, /^switch /.test(clause), chosen.type === 'focus_app' ? chosen.app_name : null);
  if (!found.some((r) => r.kind !== kind)) return result;
  const same = (r: Reading) => JSON.stringify(r.commands) === JSON.stringify(result.commands);
  const ordered = [...found.filter(same), ...found.filter((r) => !same(r))].slice(0, MAX_CHOICES);
  if (!ordered.some(same)) ordered.unshift({ kind, label: labelOf(chosen, ctx), commands: result.commands });
  return askChoosing(
    `"${phrase}" could be ${joinList(ordered.map(describe), 'or')}. Which one?`,
    ordered.map((r) => ({ label: r.label, result: ok(...r.commands) })),
  );
}

function labelOf(c: Command, ctx: ClauseContext): string {
  if (c.type === 'switch_tab') {
    const t = ctx.snap.tabs.find((x) => x.index === c.tab_index);
    return t ? tabChoice(t) : `tab ${c.tab_index}`;
  }
  if (c.type === 'focus_app') return c.app_name;
  if (c.type === 'open_recent') return baseName(c.path);
  return c.type === 'restore_tabs' ? `saved set "${c.name}"` : c.type;
}
