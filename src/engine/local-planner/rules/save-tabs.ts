import { matchApp } from '../app-matcher';
import type { TabInfo } from '../../../protocol/context';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { joinList, quote } from '../messages';
import { matchPreset } from '../preset-matcher';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { splitAge } from '../tab-age-words';
import { ageProblem } from '../tab-needs';
import { targetsResult, tabsOfPhrase } from '../tab-phrase';
import { typedForm } from '../site-text';
import { stripArticles, wordsOf } from '../text';

// Saved sets of tabs. "save these research tabs for later" (saved as "research", then closed),
// "save all tabs as friday", "stash the github tabs", "save this window as research";
// "restore research", "reopen my reading list", "bring back the research tabs". A set is named
// exactly (any case); a name that is no saved set is asked about, naming the sets there are.

const SAVE = /^(save and close|save & close|save|stash|store|park)\s+(.+?)(?:\s+(?:as|under|called|named|in|to)\s+(?:a |the )?(?:(?:set|collection|group|session|list) )?(?:called |named )?["']?(.+?)["']?)?(\s+for later| for another time| to read later)?$/;
const RESTORE = /^(restore|reopen|re-open|bring back|get back|open|load)\s+(?:up\s+)?(?:my |the |our )?(?:saved |stashed )?(.+?)(\s+(?:tabs|collection|set|session|list of tabs|saved tabs|tab set))?(\s+again)?$/;
const CLOSING_VERBS = new Set(['save and close', 'save & close', 'stash', 'park']);
const SAYS_SET = /\b(?:tabs|collection|set|session|saved)\b/;

const nameFrom = (phrase: string): string | null => {
  const words = wordsOf(stripArticles(phrase)).filter((w) => !['tab', 'tabs', 'all', 'my', 'the', 'these', 'those', 'open', 'this', 'window'].includes(w));
  return words.length ? words.join(' ') : null;
};

function save(verb: string, phrase: string, name: string | null, later: boolean, ctx: ClauseContext): ClauseResult {
  const down = chromeDown(ctx.snap);
  if (down) return down;
  const close = later || CLOSING_VERBS.has(verb);
  const aged = splitAge(phrase);
  const tabPhrase = aged ? aged.rest : phrase;
  const setName = name?.trim() ? typedForm(name.trim(), ctx.original) : nameFrom(tabPhrase);
  if (!setName) return ask('Save them under which name? Say e.g. "save all tabs as research".', CONFIDENCE.unclearReference);
  const build = (tabs: TabInfo[]): ClauseResult => {
    if (aged) {
      const problem = ageProblem(tabs, aged.age, ctx.snap);
      if (problem) return problem;
    }
    const pick = aged ? { ...(tabs.length < ctx.snap.tabs.length ? { tab_indices: tabs.map((t) => t.index) } : {}), ...aged.age } : { tab_indices: tabs.map((t) => t.index) };
    return ok({ type: 'save_tabs', name: setName, ...pick, ...(close ? { close: true } : {}) });
  };
  if (aged && /^(?:tabs?|all tabs|all my tabs|my tabs|the tabs|)$/.test(tabPhrase)) return build(ctx.snap.tabs);
  const targets = tabsOfPhrase(tabPhrase, ctx, { bareMeansAll: true });
  if (!targets) return ask('Save which tabs? Say e.g. "save the github tabs as work".', CONFIDENCE.unclearReference);
  return targetsResult(targets, build);
}

const IN_NEW_WINDOW = /\s+in (?:a )?(?:new|separate|fresh|its own) window$/;

function restore(verb: string, typed: string, saysSet: boolean, ctx: ClauseContext): ClauseResult | null {
  const sets = ctx.snap.tab_collections ?? [];
  // "open holiday in a new window": a saved set's name with where to open it says the set.
  const newWindow = IN_NEW_WINDOW.test(typed);
  const said = typed.replace(IN_NEW_WINDOW, '');
  const name = stripArticles(said).toLowerCase();
  const exact = sets.find((s) => s.toLowerCase() === name) ?? sets.find((s) => s.toLowerCase() === name.replace(/\s+tabs$/, ''));
  const opening = verb === 'open' || verb === 'load';
  // "restore club" is "club stuff" when no other set holds that word (a part of the name, as said).
  const found = exact ?? (opening ? undefined : partialName(name.replace(/\s+tabs$/, ''), sets));
  // "open research": the set when nothing else is so named — another reading (a tab, a site,
  // a file) makes it a question (other-readings.ts); the site alone is the open rule's.
  if (found) return chromeDown(ctx.snap) ?? ok({ type: 'restore_tabs', name: found, ...(newWindow ? { new_window: true } : {}) });
  // Without a set of that name, "open X" is for the other rules; so is a preset ("restore code space").
  if (opening || matchPreset(name, ctx.snap.presets, false).kind !== 'none') return null;
  // "restore zoom" with no set of that name and Zoom running: its window (set_app_state).
  if (!saysSet && matchApp(name, ctx.snap, 'running', { fuzzy: false }).kind !== 'none') return null;
  if (!saysSet && verb !== 'restore' && verb !== 'reopen' && verb !== 're-open') return null;
  const list = sets.length ? ` Saved sets: ${joinList(sets.map(quote), 'and')}.` : ' No sets of tabs are saved yet (say e.g. "save the github tabs as work").';
  return ask(`No saved set of tabs is called "${said}".${list}`, CONFIDENCE.noMatch);
}

/** The one set whose name holds every word said ("onboarding" → "onboarding research"); none when two do. */
function partialName(said: string, sets: readonly string[]): string | undefined {
  const words = wordsOf(said);
  if (!words.length) return undefined;
  const fits = sets.filter((s) => {
    const have = wordsOf(s);
    return words.every((w) => have.includes(w));
  });
  return fits.length === 1 ? fits[0] : undefined;
}

export function saveTabsRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const s = SAVE.exec(clause);
  if (s) return save(s[1]!, s[2]!, s[3] ?? null, s[4] !== undefined, ctx);
  const r = RESTORE.exec(clause);
  if (r) return restore(r[1]!, r[2]!, r[3] !== undefined || SAYS_SET.test(r[2]!) || r[4] !== undefined, ctx);
  return null;
}
