import type { ContextSnapshot, TabInfo } from '../../protocol/context';
import type { ClauseContext } from './clause-context';
import { tabOptions } from './choices';
import { isPronoun } from './follow-up';
import { joinList, noTab } from './messages';
import { namesSomething } from './object-words';
import { ask, CONFIDENCE, offer, type ClauseResult } from './result';
import { parseTabNumbers, tabsByNumber } from './tab-numbers';
import { allTabsOf, oneTabOf, thisTab, type TabTargets } from './tab-targets';
import { NUMBER_PATTERN, parseNumber, stripArticles } from './text';

// The tabs a tab-manager verb acts on ("pin this tab", "mute youtube", "reload tabs 2 and 3",
// "group my github tabs", "close the last 5 tabs"), as close's phrases read them: plural or
// "all" is every tab so named, "the X tab" exactly one (or a question). A bare name without
// the word tab ("mute youtube") means every tab of it for verbs whose effect is harmless to
// repeat, and is the caller's choice.

const ALL_TABS = /^(?:all|every|each|all of|all the|all my|every one of my)?\s*(?:the |my |open |chrome )*tabs(?: in chrome)?$|^(?:all|everything|every tab|all of them)$/;
const THIS_TAB = /^(?:this|the current|current|the active|active|my current|the focused)(?: chrome)? (?:tab|page)$|^(?:this|the current) one$/;
const N = `(${NUMBER_PATTERN})`;
const LAST = new RegExp(`^(?:the |my )?(last|first) (?:${N} )?(?:open )?tabs?$`);
// "these tabs" are the tabs in front of the person: the current window's.
const THIS_WINDOW = /^(?:all )?(?:of )?(?:the )?(?:tabs (?:in|of|from) )?(?:this|the current|my current) window(?:s tabs| tabs)?$|^(?:all )?(?:of )?these(?: open)? tabs$/;
const OTHER_WINDOW = /^(?:all )?(?:of )?(?:the )?(?:tabs? (?:in|of|from|on) )?(?:the )?other (?:chrome )?window(?:s tabs| tabs)?$/;
const GROUP = /^(?:all )?(?:the |my )?(?:tabs (?:in|of) (?:the |my )?)?(.+?)(?: tab)? group$/;
const PLURAL = [/^(?:all|every|each)(?: of)?(?: the| my| those| these)? (.+?) tabs?$/, /^(?:the |my |those |these )?(.+?) tabs$/, /^(?:all |every )?(?:the |my )?tabs (?:from|on|for|of|at|about) (.+)$/];
const SINGULAR = [/^(?:the |that |my |this )?tab (?:from|on|for|of|with|at|about|showing) (.+)$/, /^(?:the |that |my |this )?(.+?) (?:tab|page)$/];

export interface PhraseOptions {
  /** A bare name ("youtube") means every tab of it; otherwise exactly one. */
  bareMeansAll: boolean;
}

const byIndex = (a: TabInfo, b: TabInfo) => a.index - b.index;

/** The last or first N tabs of the tab list (global order, as "list tabs" numbers them). */
function ends(which: 'last' | 'first', n: number, tabs: readonly TabInfo[]): TabTargets {
  if (tabs.length === 0) return { result: ask('No tabs are open.', CONFIDENCE.noMatch) };
  if (n > tabs.length) return { result: ask(`There are only ${tabs.length} tabs open.`, CONFIDENCE.noMatch) };
  const sorted = [...tabs].sort(byIndex);
  return { tabs: which === 'last' ? sorted.slice(-n) : sorted.slice(0, n) };
}

/** "the last 5 tabs", "the first tab": those of the tab list, or null when the phrase is not that. */
export function endTabs(phrase: string, tabs: readonly TabInfo[]): TabTargets | null {
  const last = LAST.exec(phrase);
  return last ? ends(last[1] as 'last' | 'first', last[2] ? (parseNumber(last[2]) ?? 1) : 1, tabs) : null;
}

/** The tabs in a tab group titled `title` (as the companion extension reports groups). */
function groupTabs(title: string, tabs: readonly TabInfo[]): TabInfo[] {
  const key = title.trim().toLowerCase();
  return tabs.filter((t) => t.group && t.group.title.trim().toLowerCase() === key);
}

/**
 * "this window", "these tabs": the tabs of the window whose tab is in front; "the other window":
 * with two Chrome windows, the one that is not (with more, a question). null: no window phrase.
 */
export function windowTabs(phrase: string, snap: ContextSnapshot): TabTargets | null {
  const other = OTHER_WINDOW.test(phrase);
  if (!other && !THIS_WINDOW.test(phrase)) return null;
  const shown = thisTab(snap);
  if ('result' in shown) return shown;
  const here = shown.tabs[0]!.window_index;
  if (!other) return { tabs: snap.tabs.filter((t) => t.window_index === here) };
  const others = [...new Set(snap.tabs.map((t) => t.window_index))].filter((w) => w !== here);
  if (others.length === 1) return { tabs: snap.tabs.filter((t) => t.window_index === others[0]) };
  const which = others.length ? `Which other window: ${joinList(others.map(String), 'or')}?` : 'There is no other Chrome window.';
  return { result: ask(which, others.length ? CONFIDENCE.ambiguous : CONFIDENCE.noMatch) };
}

/** The tabs `phrase` names, or null when it is not a tab phrase this reader knows. */
export function tabsOfPhrase(phrase: string, ctx: ClauseContext, opts: PhraseOptions): TabTargets | null {
  const rest = phrase.replace(/\s+(?:in|from) (?:chrome|the browser|my browser)$/, '').trim();
  const tabs = ctx.snap.tabs;
  const window = windowTabs(rest, ctx.snap);
  if (window) return window;
  if (!rest || isPronoun(stripArticles(rest))) return null;
  const numbers = parseTabNumbers(rest);
  if (numbers) {
    const found = tabsByNumber(numbers, tabs);
    return 'result' in found ? found : { tabs: [...found.tabs].sort(byIndex) };
  }
  if (THIS_TAB.test(rest)) return thisTab(ctx.snap);
  if (ALL_TABS.test(rest)) return tabs.length ? { tabs: [...tabs] } : { result: ask('No tabs are open.', CONFIDENCE.noMatch) };
  const end = endTabs(rest, tabs);
  if (end) return end;
  const group = GROUP.exec(rest);
  if (group && groupTabs(group[1]!, tabs).length) return { tabs: groupTabs(group[1]!, tabs) };
  for (const re of PLURAL) {
    const m = re.exec(rest);
    if (!m || !namesSomething(m[1]!)) continue;
    // "the work tabs": the tabs of a group of that title, when there is one.
    const grouped = groupTabs(stripArticles(m[1]!), tabs);
    return grouped.length ? { tabs: grouped } : allTabsOf(stripArticles(m[1]!), tabs);
  }
  for (const re of SINGULAR) {
    const m = re.exec(rest);
    if (m && namesSomething(m[1]!)) return oneTabOf(stripArticles(m[1]!), tabs, null);
  }
  if (!namesSomething(rest)) return null;
  return opts.bareMeansAll ? allTabsOf(stripArticles(rest), tabs) : oneTabOf(stripArticles(rest), tabs, null);
}

/**
 * The clause for these targets: `build(tabs)` when they are known, else the question — offering
 * each tab (or each group of tabs) it names as a choice, built the same way.
 */
export function targetsResult(t: TabTargets, build: (tabs: TabInfo[]) => ClauseResult): ClauseResult {
  if (!('result' in t)) return build(t.tabs);
  if (t.sets) return offer(t.result, t.sets.map((set) => ({ label: set.label, result: build(set.tabs) })));
  return t.among ? offer(t.result, tabOptions(t.among, (tab) => build([tab]))) : t.result;
}

/** "No tab matches …" for a phrase that named something no tab is. */
export const noTabNamed = (phrase: string, tabs: readonly TabInfo[]) => ask(noTab(phrase, tabs), CONFIDENCE.noMatch);
