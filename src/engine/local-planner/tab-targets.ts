import type { ContextSnapshot, TabInfo } from '../../protocol/context';
import { joinList, mixedTabs, noTab, quote, tabLabel, tabNumbers, whichTab } from './messages';
import { ask, CONFIDENCE, type ClauseResult } from './result';
import { matchTabs, matchTabsPlural, type TabMatchOptions } from './tab-matcher';
import { aliasHosts } from './site-aliases';
import { squash, wordsOf } from './text';

// Turning a tab phrase into concrete tabs, the way the protocol wants them: "all reddit tabs"
// is every tab of reddit.com or named Reddit in its title; "the reddit tab" must be exactly
// one, or the user is asked.

/**
 * The tabs meant, or the question to ask. `among`: when the question is which one of these
 * tabs (in the order asked), so that the caller can offer each as a choice. `sets`: when it is
 * which group of tabs ("only the tabs named X, or also those that mention it"), each group.
 */
export type TabTargets = { tabs: TabInfo[] } | { result: ClauseResult; among?: TabInfo[]; sets?: TabSet[] };

/** A group of tabs offered as one answer: `label` says which, e.g. `tabs 2 and 4 (named "next.js")`. */
export interface TabSet {
  label: string;
  tabs: TabInfo[];
}

const byIndex = (a: TabInfo, b: TabInfo) => a.index - b.index;

/** "youtube and reddit", "youtube, reddit or twitter" → each site on its own. */
const splitSites = (phrase: string) =>
  phrase
    .split(/\s*,\s*|\s+(?:and|or|&)\s+/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Every tab of every site named (each site must match something): the tabs each name matches
 * by site or by title, as a single match would (see matchTabsPlural). When some of them are
 * named plainly and others only mention the name in their address, the user is asked which.
 */
export function allTabsOf(phrase: string, tabs: readonly TabInfo[], opts: TabMatchOptions = {}): TabTargets {
  const whole = matchTabsPlural(phrase, tabs, opts);
  const strong = new Map<number, TabInfo>();
  const weak = new Map<number, TabInfo>();
  let names = [phrase];
  if (whole.tier !== 'none') {
    for (const t of whole.strong) strong.set(t.index, t);
    for (const t of whole.weak) weak.set(t.index, t);
  } else {
    const parts = splitSites(phrase);
    if (parts.length < 2) return { result: ask(noTab(phrase, tabs), CONFIDENCE.noMatch) };
    names = parts;
    for (const part of parts) {
      const m = matchTabsPlural(part, tabs, opts);
      if (m.tier === 'none') return { result: ask(noTab(part, tabs), CONFIDENCE.noMatch) };
      for (const t of m.strong) strong.set(t.index, t);
      for (const t of m.weak) weak.set(t.index, t);
    }
  }
  for (const i of strong.keys()) weak.delete(i);
  const plain = [...strong.values()].sort(byIndex);
  const loose = [...weak.values()].sort(byIndex);
  if (plain.length && loose.length) {
    const every = [...plain, ...loose].sort(byIndex);
    return {
      result: ask(mixedTabs(names, plain, loose), CONFIDENCE.ambiguous),
      sets: [
        { label: `${tabNumbers(plain)} (named ${joinList(names.map(quote), 'or')})`, tabs: plain },
        { label: `${tabNumbers(every)} (all ${every.length})`, tabs: every },
      ],
    };
  }
  const found = plain.length ? plain : loose;
  return names.length === 1 ? oneServiceOr(phrase, found) : { tabs: found };
}

const hostOf = (t: TabInfo) => {
  try {
    return new URL(t.url).hostname.replace(/^www\./, '');
  } catch {
    return t.domain;
  }
};

const TITLE_PARTS = /\s[-|\u00b7\u2013\u2014]\s|:\s/;

/**
 * The owner's product a tab's title names after the owner's name — "Microsoft Azure", "Google
 * Docs", "Azure Kubernetes Service" for "microsoft", "google", "azure" — else the tab's site.
 * A product name is the capitalised words right after the name ("Next.js by Vercel" names none).
 */
function serviceOf(owner: string[], t: TabInfo): string {
  for (const part of t.title.split(TITLE_PARTS)) {
    const words = part.trim().split(/\s+/);
    const said = words.slice(0, owner.length).map((w) => squash(w));
    if (words.length <= owner.length || said.join(' ') !== owner.join(' ')) continue;
    const product: string[] = [];
    for (const w of words.slice(owner.length)) {
      if (!/^\p{Lu}/u.test(w)) break;
      product.push(w);
    }
    if (product.length) return [...words.slice(0, owner.length), ...product].join(' ');
  }
  return hostOf(t);
}

/**
 * One owner's name whose tabs are several of its services — "the microsoft tabs" on Microsoft
 * Learn and the Azure portal, "the google tabs" on Gmail, Docs and Calendar — may mean one
 * service or every one: a question, offering each service's tabs and all of them. Only a name
 * that is some tab's own site counts as an owner's ("the recipe tabs" on three sites are recipes).
 */
function oneServiceOr(phrase: string, tabs: TabInfo[]): TabTargets {
  const owner = wordsOf(phrase);
  const name = owner.join('');
  if (tabs.length < 2 || !tabs.some((t) => squash(t.domain.split('.')[0] ?? '') === name)) return { tabs };
  const byService = new Map<string, TabInfo[]>();
  for (const t of tabs) byService.set(serviceOf(owner, t), [...(byService.get(serviceOf(owner, t)) ?? []), t]);
  const named = [...byService.keys()].some((s) => s.includes(' '));
  if (byService.size < 2 || !named) return { tabs };
  const services = [...byService].map(([service, of]) => ({ label: `${tabNumbers(of)} (${service})`, tabs: of }));
  return {
    result: ask(`The ${quote(phrase)} tabs are ${byService.size} services: ${joinList(services.map((s) => s.label), 'and')}. All ${tabs.length}, or which?`, CONFIDENCE.ambiguous),
    sets: [...services, { label: `${tabNumbers(tabs)} (all ${tabs.length})`, tabs }],
  };
}

/** The tabs on the site the phrase is the name of ("instagram" → instagram.com, not a Canva page titled "Instagram …"). */
export function ownSiteTabs(phrase: string, tabs: readonly TabInfo[]): TabInfo[] {
  const name = squash(phrase);
  const hosts = aliasHosts(name) ?? [];
  return tabs.filter((t) => {
    const host = t.domain.toLowerCase();
    return squash(host.split('.')[0] ?? '') === name || hosts.some((h) => host === h || host.endsWith(`.${h}`) || h.endsWith(`.${host}`));
  });
}

/** Exactly one tab, or a question. `allHint`: what to say to mean all of them (e.g. "close all reddit tabs"). */
export function oneTabOf(phrase: string, tabs: readonly TabInfo[], allHint: string | null, opts: TabMatchOptions = {}): TabTargets {
  const m = matchTabs(phrase, tabs, opts);
  if (m.tier === 'none') return { result: ask(noTab(phrase, tabs), CONFIDENCE.noMatch) };
  if (m.tabs.length === 1) return { tabs: [m.tabs[0]!] };
  const hint = allHint ? ` (Or say "${allHint}".)` : '';
  const among = [...m.tabs].sort(byIndex);
  return { result: ask(whichTab(among) + hint, CONFIDENCE.ambiguous), among };
}

/**
 * "this tab": the active tab of the Chrome window that has focus. Chrome marks one active tab
 * per window, so with several windows the focused window's title (the active tab's title plus
 * the browser's name) says which. When Chrome does not have focus, "this tab" is unknown.
 */
export function thisTab(snap: ContextSnapshot): TabTargets {
  const tabs = snap.tabs;
  if (tabs.length === 0) return { result: ask('No tabs are open.', CONFIDENCE.noMatch) };
  const active = tabs.filter((t) => t.is_active).sort(byIndex);
  const browser = snap.running_apps.find((a) => BROWSER_NAME.test(a.name) && a.windows.some((w) => w.focused));
  const focused = browser?.windows.find((w) => w.focused);
  const windows = new Set(tabs.map((t) => t.window_index));
  const asked = (why: string) => ({
    result: ask(`Which tab do you mean? ${why} Active tabs: ${joinList(active.map(tabLabel), 'and')}.`, CONFIDENCE.ambiguous),
    among: active,
  });
  if (!focused) return asked('Chrome is not the focused window.');
  if (windows.size === 1 && active.length === 1) return { tabs: [active[0]!] };
  const shown = active.filter((t) => t.title && (focused.title === t.title || focused.title.startsWith(`${t.title} - `)));
  if (shown.length === 1) return { tabs: [shown[0]!] };
  return asked(`Chrome has ${windows.size} windows.`);
}

const BROWSER_NAME = /chrom/i;

const WINDOW_ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4, '5th': 5 };

/** "in the second window", "in window 2", "in the last window" → that window's tabs; anything else names no window. */
export function tabsInWindow(word: string, tabs: readonly TabInfo[]): TabTargets {
  const windows = [...new Set(tabs.map((t) => t.window_index))].sort((a, b) => a - b);
  const n = word === 'last' ? windows[windows.length - 1] : /^\d+$/.test(word) ? Number(word) : Object.hasOwn(WINDOW_ORDINALS, word) ? WINDOW_ORDINALS[word] : undefined;
  if (n === undefined || !windows.includes(n)) {
    return { result: ask(`Which window: ${joinList(windows.map(String), 'or')}? Chrome windows are numbered in the order "list tabs" shows them.`, CONFIDENCE.ambiguous) };
  }
  return { tabs: tabs.filter((t) => t.window_index === n) };
}
