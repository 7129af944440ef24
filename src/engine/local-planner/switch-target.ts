import type { TabInfo } from '../../protocol/context';
import { matchApp, runningApp } from './app-matcher';
import { chromeDown } from './availability';
import type { ClauseContext } from './clause-context';
import { resolvePronoun } from './follow-up';
import { askWhichApp, askWhichPreset, askWhichTab, focusApp, switchTab, tabOptions } from './choices';
import { joinList, noApp, noTab, tabLabel } from './messages';
import { matchPreset, presetsWithWord } from './preset-matcher';
import { ask, askChoosing, CONFIDENCE, MAX_CHOICES, ok, type ClauseResult } from './result';
import { aliasHosts, isUnknownBareWord } from './site-aliases';
import { siteText } from './site-text';
import { parseTabNumbers, tabsByNumber } from './tab-numbers';
import { matchTabs, type TabMatch } from './tab-matcher';
import { hasSeparator, squash, stripArticles, wordsOf } from './text';
import { askWhat, namesSomething } from './object-words';

// "Bring X to the front", whatever X is: a tab (switch_tab), an app (focus_app) or a preset.
// The same resolution serves "switch to X", "go to X", "show me X" and a bare "X", strongest
// evidence first:
//   1. a preset's exact name (people name presets so that saying the name applies it);
//   2. a running app of exactly that name ("cursor" is the Cursor app, not the Cursor Docs tab);
//   3. tabs of the site the phrase names ("reddit", "gmail", "hacker news");
//   4. an app by a word of its name or a common alias ("chrome", "vs code", "the editor");
//   5. tabs whose title/address hold the phrase's words ("the reddit thread about vitest");
//   6. a word of several preset names ("code") → ask which;
//   7. slips in a site or app name ("redit", "spotfy") — not for a bare word.
// Several equally good candidates → ask, naming them.

export interface SwitchOptions {
  /** The clause had no verb at all ("reddit"): no typo matching; "not understood" rather than "no match". */
  bare?: boolean;
  /** "go to", "take me to": open the site in a new tab when no tab of it is open. */
  openWhenMissing?: boolean;
  /** The verb as said ("switch to", "go to"), for the question when the phrase names nothing. */
  verb?: string;
}

type Scope = 'tabs' | 'apps' | 'any';

const TAB_SUFFIX = /\s+(?:tab|page|site|website|tab in chrome|window in chrome)$/;
const APP_SUFFIX = /\s+(?:app|application|program|window)$/;
const IN_CHROME = /\s+(?:in|on) (?:chrome|google chrome|the browser|my browser)$/;

function scopeOf(raw: string): { phrase: string; scope: Scope } {
  let phrase = stripArticles(raw.trim());
  let scope: Scope = 'any';
  if (IN_CHROME.test(phrase)) {
    phrase = phrase.replace(IN_CHROME, '');
    scope = 'tabs';
  }
  if (TAB_SUFFIX.test(phrase)) return { phrase: stripArticles(phrase.replace(TAB_SUFFIX, '')), scope: 'tabs' };
  if (APP_SUFFIX.test(phrase)) return { phrase: stripArticles(phrase.replace(APP_SUFFIX, '')), scope: 'apps' };
  return { phrase, scope };
}

export function switchTo(rawPhrase: string, ctx: ClauseContext, opts: SwitchOptions = {}): ClauseResult | null {
  const { phrase, scope } = scopeOf(rawPhrase);
  // "go to my bank" is something of the user's, not a site called bank.com.
  const personal = /^(?:my|our) /.test(rawPhrase.trim()) && !aliasHosts(squash(phrase));
  if (!phrase) return null;
  const snap = ctx.snap;

  const pronoun = resolvePronoun(phrase, ctx.referent);
  if (pronoun && opts.bare) return null;
  if (pronoun) return 'result' in pronoun ? pronoun.result : ok({ type: 'focus_app', app_name: pronoun.app });
  // "switch to the", "go to my", "show me the tab": nothing to look up (see object-words.ts).
  if (!namesSomething(rawPhrase)) {
    if (opts.bare) return null;
    const verb = opts.verb ?? 'switch to';
    return opts.openWhenMissing ? askWhat(verb, 'a site, a tab or an app', 'github') : askWhat(verb, 'a tab, an app or a preset', 'gmail');
  }

  const numbers = parseTabNumbers(phrase) ?? (opts.bare ? null : parseTabNumbers(`tab ${phrase}`));
  if (numbers && scope !== 'apps') {
    if (numbers.length !== 1) {
      const named = numbers.map((n) => snap.tabs.find((t) => t.index === n)).filter((t) => t !== undefined);
      return askChoosing(`Which one tab: ${numbers.join(' or ')}?`, tabOptions(named, switchTab));
    }
    const found = tabsByNumber(numbers, snap.tabs);
    return chromeDown(snap) ?? ('result' in found ? found.result : ok({ type: 'switch_tab', tab_index: found.tabs[0]!.index }));
  }

  if (scope === 'any') {
    const preset = matchPreset(phrase, snap.presets, false);
    if (preset.kind === 'one') return ok({ type: 'activate_preset', preset_name: preset.name });
    if (preset.kind === 'many') return askWhichPreset(preset.names);
  }

  const chromeOk = snap.sources.chrome.ok;
  if (scope === 'tabs' && !chromeOk) return chromeDown(snap);
  const app = scope !== 'tabs' ? matchApp(phrase, snap, 'any', { fuzzy: false }) : ({ kind: 'none' } as const);
  if (app.kind === 'one' && app.tier === 'exact' && runningApp(snap, app.name)) return ok({ type: 'focus_app', app_name: app.name });

  const tabs: TabMatch = scope !== 'apps' && chromeOk ? matchTabs(phrase, snap.tabs, { fuzzy: false }) : { tier: 'none', tabs: [], all: [] };
  if (tabs.tier === 'site') return pickTab(tabs.tabs);
  // An app found only by a keyword of its .desktop entry ("Calendar" for Thunderbird) is weaker
  // than tabs whose title names the phrase outright; against tabs that merely share the word,
  // neither is clearly meant.
  if (app.kind !== 'none' && app.tier === 'kind' && tabs.tier === 'words') {
    const named = tabs.tabs.filter((t) => titleNames(phrase, t));
    if (named.length) return pickTab(named);
    return askAppOrTabs(app.kind === 'one' ? [app.name] : app.names, tabs.tabs);
  }
  if (app.kind === 'one') return ok({ type: 'focus_app', app_name: app.name });
  if (app.kind === 'many') return askWhichApp(app.names, focusApp);
  if (tabs.tier !== 'none') return pickTab(tabs.tabs);

  if (scope === 'any') {
    const partial = presetsWithWord(phrase, snap.presets);
    if (partial.length) return askWhichPreset(partial);
  }
  // A known site name with Chrome away is a tab request, not a slip of some app's name ("gmail" ≠ "Mail").
  const knownSite = aliasHosts(squash(phrase)) !== null;
  if (!chromeOk && scope !== 'apps' && knownSite) return chromeDown(snap);

  if (!opts.bare) {
    const fuzzyTabs: TabMatch = scope !== 'apps' && chromeOk ? matchTabs(phrase, snap.tabs, { wordsOnly: false }) : { tier: 'none', tabs: [], all: [] };
    const fuzzyApp = scope !== 'tabs' && !knownSite ? matchApp(phrase, snap, 'any') : ({ kind: 'none' } as const);
    if (fuzzyTabs.tier === 'fuzzy' && fuzzyApp.kind !== 'none') return askAppOrTabs(fuzzyApp.kind === 'one' ? [fuzzyApp.name] : fuzzyApp.names, fuzzyTabs.tabs);
    if (fuzzyTabs.tier === 'fuzzy') return pickTab(fuzzyTabs.tabs);
    if (fuzzyApp.kind === 'one') return ok({ type: 'focus_app', app_name: fuzzyApp.name });
    if (fuzzyApp.kind === 'many') return askWhichApp(fuzzyApp.names, focusApp);
  }

  // Nothing matched the whole phrase; if it holds a separator it is probably two clauses.
  if (opts.bare || hasSeparator(phrase)) return null;
  if (scope !== 'apps' && !chromeOk) return chromeDown(snap);
  if (opts.openWhenMissing && scope === 'any' && !personal && !isUnknownBareWord(phrase)) {
    const url = siteText(phrase, ctx.original);
    if (url) return ok({ type: 'open_url', url });
  }
  if (scope === 'apps') return ask(noApp(phrase, snap.running_apps.map((a) => a.name), 'any'), CONFIDENCE.noMatch);
  const opener = isUnknownBareWord(phrase) ? `open ${phrase} in a new tab` : `open ${phrase}`;
  const hint = scope === 'any' && siteText(phrase, ctx.original) ? ` Say "${opener}" to open it in a new tab.` : '';
  return ask(`${noTab(phrase, snap.tabs)}${hint}`, CONFIDENCE.noMatch);
}

function askAppOrTabs(names: readonly string[], tabs: readonly TabInfo[]): ClauseResult {
  const options = [...names.map((n) => `the app "${n}"`), ...tabs.map((t) => `tab ${tabLabel(t)}`)];
  return askChoosing(`Did you mean ${joinList(options, 'or')}?`, [
    ...names.slice(0, MAX_CHOICES).map((n) => ({ label: `app ${n}`, result: focusApp(n) })),
    ...tabOptions(tabs, switchTab),
  ]);
}

/**
 * Whether a part of the tab's title, between separators, is the phrase itself or its site's
 * name followed by it: "Podcast - Episode 12" and "Google Calendar - Week of …" name
 * "podcast" and "calendar"; "My favourite song lyrics" does not name "song".
 */
export function titleNames(phrase: string, tab: TabInfo): boolean {
  const said = wordsOf(phrase).join(' ');
  const site = (tab.domain ?? '').split('.')[0] ?? '';
  // Middle dot, en and em dash as escapes: the built CLI is kept ASCII (src/cli/load-cli.ts).
  return tab.title.split(/\s[-|\u00b7\u2013\u2014:]\s|:\s/).some((part) => {
    const words = wordsOf(part).join(' ');
    return words === said || (site !== '' && words === `${site} ${said}`);
  });
}

export function pickTab(tabs: readonly TabInfo[]): ClauseResult {
  if (tabs.length === 1) return ok({ type: 'switch_tab', tab_index: tabs[0]!.index });
  const same = oneOfIdentical(tabs);
  if (same) return ok({ type: 'switch_tab', tab_index: same.index });
  return askWhichTab([...tabs].sort((a, b) => a.index - b.index), switchTab);
}

/**
 * Tabs showing the very same address are one thing to a person, so asking which would be
 * pointless: the one in front of its window, else the one used last, else the one opened last
 * (the highest index, when no tab's last use is known).
 */
export function oneOfIdentical(tabs: readonly TabInfo[]): TabInfo | null {
  if (tabs.length < 2 || tabs.some((t) => t.url !== tabs[0]!.url)) return null;
  const active = tabs.filter((t) => t.is_active);
  if (active.length === 1) return active[0]!;
  const used = (t: TabInfo) => (t.last_used_at ? Date.parse(t.last_used_at) : -Infinity);
  return [...(active.length ? active : tabs)].sort((a, b) => used(b) - used(a) || b.index - a.index)[0]!;
}
