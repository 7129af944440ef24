import type { TabInfo } from '../../../protocol/context';
import { matchApp, runningApp } from '../app-matcher';
import { runningAppTarget } from '../app-targets';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { isPronoun } from '../follow-up';
import { appOptions, askWhichApp, askWhichTab, tabOptions, type Option } from '../choices';
import { joinList, noTab, tabChoice, tabLabel } from '../messages';
import { ask, askChoosing, CONFIDENCE, MAX_CHOICES, offer, ok, type ClauseResult } from '../result';
import { closeTabs, parseTabNumbers, tabsByNumber } from '../tab-numbers';
import { matchTabs } from '../tab-matcher';
import { allTabsOf, oneTabOf, ownSiteTabs, tabsInWindow, thisTab, type TabTargets } from '../tab-targets';
import { windowTabs } from '../tab-phrase';
import { hasSeparator, stripArticles } from '../text';
import { askWhat, namesSomething } from '../object-words';

// close/quit. Tabs when the user says "tab(s)" or numbers; apps when the verb only applies to
// apps (quit, exit, kill) or the name is an app's. "close X" where both an app and tabs are
// called X asks which — quitting an app by mistake loses more than a question costs.

const VERB = /^(close out|close down|close|shut down|shut|force quit|force close|kill|quit|exit|terminate|get rid of|remove|dismiss)\s+(.+)$/;
const APP_ONLY_VERBS = new Set(['shut down', 'force quit', 'force close', 'kill', 'quit', 'exit', 'terminate']);

const THIS_TAB = /^(?:this|the current|current|the active|active|my current|the focused|this current)(?: chrome)? tab$/;
const OTHER_TABS = /^(?:all )?(?:the )?other tabs(?: in this window)?$|^(?:all )?(?:the )?tabs (?:except|but) (?:this|the current|the active)(?: one| tab)?$/;
const ALL_TABS = /^(?:all|every|each)(?: of)?(?: my| the)?(?: open| chrome)? tabs(?: in chrome)?$|^every tab$|^everything in chrome$/;
const EVERYTHING = /^(?:everything|all|it all|all of it|all of them|every ?thing open)$/;
const EXCEPT = /^(?:all|everything|every tab|all (?:of )?(?:the |my )?(?:other |open )?tabs)\s+(?:except|but|other than|apart from|besides|save)\s+(?:for\s+)?(?:the\s+)?(.+?)(?:\s+tabs?)?$/;
const IN_WINDOW = /^(.+?)\s+in (?:the |my )?(?:(\w+) (?:chrome |browser )?window|window (\d+))$/;
const BY_TITLE = [
  /^(?:all |every |the )?tabs? (?:with|containing|that have|having|that mention) (.+?) in (?:the |their |its )?(?:titles?|names?)$/,
  /^(?:all |every |the )?tabs? (?:whose|where the) titles? (?:contains?|has|have|includes?|mentions?) (.+)$/,
  /^(?:all |every |the )?tabs? (?:titled|named|called) (.+)$/,
];
const BOTH = /^both(?: of)?(?: the| my)? (.+?) tabs$/;
// "twitch except gdq", "the twitch tabs apart from the speedrun one", "every tab in this window
// except overleaf and the google doc": a set of tabs, minus those the second part names among them.
const BUT = /^(.+?),?\s+(?:except(?: for)?|apart from|other than|besides|save for|excluding|but not|but)\s+(?:for\s+)?(.+?)(?:\s+(?:one|ones|tabs?|streams?|videos?))?$/;
const SET_NOUNS = /^(?:(?:all|every|each)(?: of)? )?(?:the |my )?(.+?)(?: (?:tabs?|streams?|videos?|pages?))?$/;

// Plural or "all": every matching tab. Singular: exactly one.
const ALL_OF = [
  /^(?:all|every|each)(?: of)?(?: the| my| those| these)? (.+?) tabs?$/,
  /^(?:all |every )?(?:the |my )?tabs (?:from|on|for|of|with|at|about|showing|that are on) (.+)$/,
  /^(?:all|every) (?:the |my )?tab (?:from|on|for|of|with|at|about) (.+)$/,
  /^(?:the |my |those |these )?(.+?) tabs$/,
  /^(?:all|every)(?: of)? (?:the |my )?(.+)$/,
];
const ONE_OF = [/^(?:the |that |my |this )?tab (?:from|on|for|of|with|at|about|showing) (.+)$/, /^(?:the |that |my |this )?(.+?) tab$/];

const byIndex = (a: TabInfo, b: TabInfo) => a.index - b.index;
const closeOne = (t: TabInfo) => closeTabs([t]);
const closeApp = (name: string): ClauseResult => ok({ type: 'close_app', app_name: name });

/** The tabs closed; or the question, offering to close each tab (or each group of tabs) it names. */
function result(t: TabTargets): ClauseResult {
  if (!('result' in t)) return closeTabs(t.tabs);
  if (t.sets) return offer(t.result, t.sets.map((set) => ({ label: `close ${set.label}`, result: closeTabs(set.tabs) })));
  return t.among ? offer(t.result, tabOptions(t.among, closeOne)) : t.result;
}

export function closeRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const m = VERB.exec(clause);
  if (!m) return null;
  const verb = m[1]!;
  const rest = m[2]!.replace(/\s+(?:in|from) (?:chrome|the browser|my browser)$/, '').trim();

  if (isPronoun(stripArticles(rest)) || /^(?:it|that|this|them) (?:app|window|program)$/.test(rest)) return appResult(rest, ctx);
  // "close the", "quit my": nothing named (see object-words.ts). "close the tab(s)" asks which below.
  if (!namesSomething(rest) && !/\btabs?$/.test(rest)) {
    return APP_ONLY_VERBS.has(verb) ? askWhat(verb, 'an app', 'slack') : askWhat(verb, 'a tab or an app', 'the reddit tab');
  }
  const tabs = tabPhrase(rest, ctx);
  if (tabs) return chromeDown(ctx.snap) ?? tabs;
  if (APP_ONLY_VERBS.has(verb)) return appResult(rest, ctx);
  return appOrTab(stripArticles(rest), ctx);
}

/** The tabs a phrase such as "tabs 2 and 5", "this tab", "all reddit tabs", "both github tabs" names; null: no tab phrase. */
function tabPhrase(rest: string, ctx: ClauseContext, within?: readonly TabInfo[]): ClauseResult | null {
  const tabs = within ?? ctx.snap.tabs;
  const numbers = parseTabNumbers(rest);
  if (numbers) {
    const found = tabsByNumber(numbers, ctx.snap.tabs);
    return 'result' in found ? found.result : closeTabs([...found.tabs].sort(byIndex));
  }
  if (THIS_TAB.test(rest)) return result(thisTab(ctx.snap));
  if (OTHER_TABS.test(rest)) return otherTabs(ctx);
  const window = within ? null : windowTabs(rest, ctx.snap);
  if (window) return result(window);
  const inWindow = within ? null : IN_WINDOW.exec(rest);
  if (inWindow) {
    const win = tabsInWindow(inWindow[2] ?? inWindow[3]!, tabs);
    if ('result' in win) return offer(win.result, windowOptions(inWindow[1]!, ctx, tabs));
    return tabPhrase(inWindow[1]!, ctx, win.tabs) ?? ask(noTab(inWindow[1]!, win.tabs), CONFIDENCE.noMatch);
  }
  if (ALL_TABS.test(rest)) return tabs.length ? closeTabs(tabs) : ask('No tabs are open.', CONFIDENCE.noMatch);
  if (!within && EVERYTHING.test(rest)) {
    return ask(`Close all ${tabs.length} tabs ("close all tabs"), or quit apps ("quit slack")? Running: ${ctx.snap.running_apps.map((a) => a.name).join(', ')}.`, CONFIDENCE.ambiguous);
  }
  const except = EXCEPT.exec(rest);
  if (except) {
    const keep = allTabsOf(except[1]!, tabs);
    const allBut = (kept: readonly TabInfo[]) => {
      const closing = tabs.filter((t) => !kept.includes(t));
      return closing.length ? closeTabs(closing) : ask('That would close no tab.', CONFIDENCE.noMatch);
    };
    if (!('result' in keep)) return allBut(keep.tabs);
    return keep.sets ? offer(keep.result, keep.sets.map((set) => ({ label: `keep ${set.label}`, result: allBut(set.tabs) }))) : keep.result;
  }
  const but = within ? null : BUT.exec(rest);
  if (but) {
    const r = allBut(but[1]!, but[2]!, ctx);
    if (r) return r;
  }
  for (const re of BY_TITLE) {
    const t = re.exec(rest);
    if (t) return result(allTabsOf(stripArticles(t[1]!), tabs, { titlesOnly: true }));
  }
  const both = BOTH.exec(rest);
  if (both) {
    const found = allTabsOf(stripArticles(both[1]!), tabs);
    if ('result' in found || found.tabs.length === 2) return result(found);
    return ask(`"Both" means two, but ${found.tabs.length} tabs match: ${found.tabs.map(tabLabel).join(', ')}. Which ones?`, CONFIDENCE.ambiguous);
  }
  for (const re of ALL_OF) {
    const a = re.exec(rest);
    if (!a) continue;
    // "close all of them" is a pronoun, not a site called "them".
    if (isPronoun(a[1]!) || !stripArticles(a[1]!) || /^(?:the|my|those|these|other)$/.test(a[1]!)) {
      return ask('Which tabs do you mean? Say e.g. "close all reddit tabs" or "close tabs 2 and 5".', CONFIDENCE.unclearReference);
    }
    return result(allTabsOf(stripArticles(a[1]!), tabs));
  }
  for (const re of ONE_OF) {
    const a = re.exec(rest);
    if (!a) continue;
    const site = stripArticles(a[1]!);
    if (/^(?:other\b|the$|my$|that$)/.test(site) || !site) {
      return ask('Which tab do you mean? Say its site or number, e.g. "close the reddit tab" or "close tab 3".', CONFIDENCE.unclearReference);
    }
    return result(oneTabOf(site, tabs, `close all ${site} tabs`));
  }
  return null;
}

/** The tabs of "every tab in this window", "all twitch tabs", "twitch"; null: not a set of tabs. */
function setOf(phrase: string, ctx: ClauseContext): TabInfo[] | null {
  const window = windowTabs(phrase.replace(/^(?:every|each) tab /, 'all tabs '), ctx.snap);
  if (window) return 'result' in window ? null : window.tabs;
  if (ALL_TABS.test(phrase)) return [...ctx.snap.tabs];
  const name = SET_NOUNS.exec(phrase)?.[1];
  if (!name || !namesSomething(name)) return null;
  const found = allTabsOf(stripArticles(name), ctx.snap.tabs);
  return 'result' in found ? null : found.tabs;
}

/** Close the set minus the tabs each kept name matches among it; a kept name that matches none there is asked about. */
function allBut(setPhrase: string, keepPhrase: string, ctx: ClauseContext): ClauseResult | null {
  const set = setOf(setPhrase, ctx);
  if (!set) return null;
  const kept = new Set<number>();
  for (const said of keepPhrase.split(/\s*,\s*|\s+(?:and|or)\s+/)) {
    // The tab the words name best ("canvas" is the Canvas tab, not Canva's); when several fit
    // equally, "the google doc" asks which, while "lofi" or "the github ones" keeps each.
    const part = stripArticles(said.replace(/\s+(?:one|ones|tabs?)$/, ''));
    if (!part) continue;
    const plural = /\b(?:ones|tabs)$/.test(said.trim());
    const own = ownSiteTabs(part, set);
    const best = plural || own.length ? null : oneTabOf(part, set, null);
    const found = own.length ? { tabs: own } : best && ('tabs' in best || /^(?:the|that|this) /.test(said.trim())) ? best : allTabsOf(part, set);
    if ('result' in found) return ask(`None of those tabs is "${part}": ${set.map(tabLabel).join(', ')}.`, CONFIDENCE.noMatch);
    for (const t of found.tabs) kept.add(t.index);
  }
  const closing = set.filter((t) => !kept.has(t.index));
  return closing.length ? closeTabs(closing) : ask('That would close no tab.', CONFIDENCE.noMatch);
}

/** null: the phrase is no app's name and holds a separator — two clauses, for the splitter. */
function appResult(phrase: string, ctx: ClauseContext): ClauseResult | null {
  const t = runningAppTarget(phrase, ctx, false);
  if (!t) return null;
  if (!('result' in t)) return closeApp(t.app.name);
  return t.among ? offer(t.result, appOptions(t.among.map((a) => a.name), closeApp)) : t.result;
}

/** "close the youtube tabs in the travel window": the phrase's tabs in each Chrome window, as choices. */
function windowOptions(phrase: string, ctx: ClauseContext, tabs: readonly TabInfo[]): Option[] {
  const windows = [...new Set(tabs.map((t) => t.window_index))].sort((a, b) => a - b);
  return windows.map((w) => {
    const r = tabPhrase(phrase, ctx, tabs.filter((t) => t.window_index === w));
    const closed = r?.kind === 'ok' ? r.commands.flatMap((c) => (c.type === 'close_tab' ? c.tab_indices : [])) : [];
    const which = closed.length === 1 ? `tab ${closed[0]}` : closed.length <= 4 ? `tabs ${joinList(closed.map(String), 'and')}` : `${closed.length} tabs`;
    return { label: `window ${w}: ${which}`, result: r };
  });
}

/** Every tab but "this" one. */
function otherTabs(ctx: ClauseContext): ClauseResult {
  const active = thisTab(ctx.snap);
  // Which tab "this" is decides which the others are: each active tab is a choice, labelled by what stays.
  if ('result' in active) {
    const keep = (active.among ?? []).slice(0, MAX_CHOICES).map((t) => ({ label: `all but ${tabChoice(t)}`, result: othersThan(t, ctx) }));
    return offer(active.result, keep);
  }
  return othersThan(active.tabs[0]!, ctx);
}

function othersThan(keep: TabInfo, ctx: ClauseContext): ClauseResult {
  const others = ctx.snap.tabs.filter((t) => t.window_index === keep.window_index && t.index !== keep.index);
  return others.length ? closeTabs(others) : ask('There are no other tabs in this window.', CONFIDENCE.noMatch);
}

/** "close X" without the word tab: an app called X, or X's tab(s), or a question. */
function appOrTab(phrase: string, ctx: ClauseContext): ClauseResult | null {
  if (/^(?:other|the other)\b/.test(phrase)) {
    return ask('Which ones do you mean? Say their numbers, e.g. "close tabs 2 and 5".', CONFIDENCE.unclearReference);
  }
  const app = matchApp(phrase, ctx.snap, 'running', { fuzzy: false });
  const chromeOk = ctx.snap.sources.chrome.ok;
  const tabMatch = chromeOk ? matchTabs(phrase, ctx.snap.tabs, { fuzzy: app.kind === 'none' }) : null;
  // A running app's name is only contested by tabs of that very site, not by titles mentioning it.
  const tabs = tabMatch && tabMatch.tier !== 'none' && (app.kind === 'none' || tabMatch.tier === 'site') ? tabMatch.tabs : [];

  if (app.kind === 'one' && tabs.length === 0) return ok({ type: 'close_app', app_name: app.name });
  if (app.kind !== 'none' && tabs.length > 0) {
    const appNames = app.kind === 'one' ? [app.name] : app.names;
    const tabText = tabs.length === 1 ? `tab ${tabLabel(tabs[0]!)}` : `the ${tabs.length} ${phrase} tabs`;
    return askChoosing(`Close the app ${appNames.map((n) => `"${n}"`).join(' or ')}, or ${tabText}?`, [
      ...appNames.map((n) => ({ label: `quit ${n}`, result: closeApp(n) })),
      { label: tabs.length === 1 ? `close ${tabChoice(tabs[0]!)}` : `close the ${tabs.length} ${phrase} tabs`, result: closeTabs([...tabs].sort(byIndex)) },
    ]);
  }
  if (app.kind === 'many') return askWhichApp(app.names, closeApp);
  if (tabs.length === 1) return closeTabs(tabs);
  // "close reddit", "close hacker news": a site named as a whole is the site, every tab of it
  // (one owner's several services still asks, see allTabsOf); "close the rust video" names one.
  const own = tabMatch?.tier === 'site' ? ownSiteTabs(phrase, tabs) : [];
  if (tabs.length > 1 && own.length) return own.length > 1 ? result(allTabsOf(phrase, own)) : closeTabs(own);
  if (tabs.length > 1) {
    // No "tab" said, so all of them is as likely as one: offered last.
    const sorted = [...tabs].sort(byIndex);
    const all = { label: `all ${sorted.length} ${phrase} tabs`, result: closeTabs(sorted) };
    return askWhichTab(sorted, closeOne, [all], ` (Or say "close all ${phrase} tabs".)`);
  }

  const installed = matchApp(phrase, ctx.snap, 'any', { fuzzy: false });
  if (installed.kind === 'one' && !runningApp(ctx.snap, installed.name)) return ask(`${installed.name} is not running.`, CONFIDENCE.noMatch);
  const slip = matchApp(phrase, ctx.snap, 'running');
  if (slip.kind === 'one' && !tabMatch?.tabs.length) return ok({ type: 'close_app', app_name: slip.name });
  if (hasSeparator(phrase)) return null;
  if (!chromeOk) return chromeDown(ctx.snap)!;
  const running = ctx.snap.running_apps.map((a) => a.name);
  const apps = running.length ? ` Running apps: ${running.join(', ')}.` : '';
  return ask(`${noTab(phrase, ctx.snap.tabs)}${apps}`, CONFIDENCE.noMatch);
}
