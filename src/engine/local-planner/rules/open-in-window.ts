import type { CommandOf } from '../../../protocol/commands';
import type { ContextSnapshot } from '../../../protocol/context';
import { browserWindows, describeBrowserWindow } from '../../browser-window-target';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { joinList } from '../messages';
import { namesSomething } from '../object-words';
import { isAddress } from '../address';
import { isUnknownBareWord } from '../site-aliases';
import { stripArticles } from '../text';
import { typedForm } from '../site-text';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { thisTab } from '../tab-targets';
import { openSite } from './open';

// "open gmail in a new window", "open a new chrome window", "open github.com in the other window", "load the docs in
// window 2", "open news in this window": open_url with where its tab goes — a new window, or a
// browser window by its browser_window_id. "The other window" is the one of exactly two that is
// not the focused one; "this window" the focused one ("this tab"'s); a window by number is w<n>
// of the tab list. What cannot be told is asked, never guessed. A saved set's name with "in a
// new window" is restore_tabs (save-tabs.ts, tried first).

const VERB = '(?:open up|open|load|visit|browse to|go to|pull up|bring up)';
const WINDOW = '(?:chrome |browser )?window';
const IN_WINDOW = new RegExp(`^${VERB}\\s+(.+?)\\s+(?:in|into|on)\\s+(?:(?:a|an) )?(new|separate|fresh|another|the other|other|this|the current|current|my current|the same|the first|first|the second|second|the third|third|the last|last) ${WINDOW}$`);
const IN_WINDOW_N = new RegExp(`^${VERB}\\s+(.+?)\\s+(?:in|into|on)\\s+(?:the )?${WINDOW} (?:number )?(\\d+|one|two|three)$`);

const NUMBERS: Record<string, number> = { first: 1, one: 1, second: 2, two: 2, third: 3, three: 3 };

type Where = { new_window: true } | { browser_window_id: number };

// "open a new chrome window": a blank one. Without the browser's name it could be any app's, which DeskPilot cannot open.
const NEW_WINDOW = /^(?:open|create|make|start|get me|give me)(?: up)? (?:a |an |another )?(?:new |fresh |blank |empty |second )?(chrome |browser )?window$/;

export function openInWindowRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const blank = NEW_WINDOW.exec(clause);
  if (blank) {
    if (!blank[1]) return ask('A new window of which app? DeskPilot opens new Chrome windows: say "open a new chrome window", or "open gmail in a new window".', CONFIDENCE.ambiguous);
    return chromeDown(ctx.snap) ?? ok({ type: 'open_url', url: 'about:blank', new_window: true });
  }
  const m = IN_WINDOW.exec(clause) ?? IN_WINDOW_N.exec(clause);
  if (!m || !namesSomething(m[1]!)) return null;
  const down = chromeDown(ctx.snap);
  if (down) return down;
  const where = destination(m[2]!.replace(/^the /, ''), ctx.snap);
  if ('result' in where) return where.result;
  // Only a site DeskPilot knows by name or an address: "the issues page" is no site called issues.
  const target = stripArticles(m[1]!).replace(/\s+(?:page|site|website|tab)$/, '');
  if (!isAddress(target) && (!/^[a-z0-9-]+$/.test(target) || isUnknownBareWord(target))) {
    return ask(`Which site is "${target}"? Say its address, e.g. "open example.com in a new window".`, CONFIDENCE.noMatch);
  }
  // An address keeps the case it was typed in (a path or query may need it).
  const site = isAddress(target) ? ok({ type: 'open_url', url: typedForm(target, ctx.original) }) : openSite(target, ctx);
  if (site.kind !== 'ok') return site;
  return ok(...site.commands.map((c) => (c.type === 'open_url' ? ({ ...c, ...where } satisfies CommandOf<'open_url'>) : c)));
}

function destination(word: string, snap: ContextSnapshot): Where | { result: ClauseResult } {
  if (['new', 'separate', 'fresh', 'another'].includes(word)) return { new_window: true };
  const windows = browserWindows(snap);
  const known = new Set(snap.tabs.map((t) => t.window_index)).size === windows.length;
  if (!known || windows.length === 0) {
    return { result: ask('Chrome did not say which window is which here; say "in a new window", or switch to that window and say "open … in a new tab".', CONFIDENCE.noMatch) };
  }
  const list = joinList(windows.map(describeBrowserWindow), 'or');
  const n = word === 'last' ? windows.length : NUMBERS[word] ?? (/^\d+$/.test(word) ? Number(word) : undefined);
  if (n !== undefined) {
    const w = windows.find((x) => x.window_index === n);
    return w ? { browser_window_id: w.browser_window_id } : { result: ask(`Which window: ${list}?`, CONFIDENCE.ambiguous) };
  }
  const shown = thisTab(snap);
  if ('result' in shown) return { result: ask(`Which window: ${list}? (Chrome's focused window could not be told.)`, CONFIDENCE.ambiguous) };
  const here = shown.tabs[0]!.browser_window_id;
  if (here === undefined) return { result: ask(`Which window: ${list}?`, CONFIDENCE.ambiguous) };
  if (['this', 'current', 'my current', 'same'].includes(word)) return { browser_window_id: here };
  const others = windows.filter((w) => w.browser_window_id !== here);
  if (others.length === 1) return { browser_window_id: others[0]!.browser_window_id };
  return { result: ask(others.length ? `Which other window: ${joinList(others.map(describeBrowserWindow), 'or')}?` : 'There is no other Chrome window; say "in a new window".', others.length ? CONFIDENCE.ambiguous : CONFIDENCE.noMatch) };
}
