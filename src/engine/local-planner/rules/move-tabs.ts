import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { targetsResult, tabsOfPhrase } from '../tab-phrase';
import { parseNumber } from '../text';

// "move the docs tabs to a new window", "send reddit to window 2", "move tab 4 to the other
// window". Only a window as the destination makes this about tabs; "move slack to the left"
// stays with placing apps. A bare name means every tab of it.

const VERB = '(?:move|send|put|take|drag|pull|throw|shift)';
const NEW_WINDOW = new RegExp(`^${VERB}\\s+(.+?)\\s+(?:out )?(?:to|into|in|onto)\\s+(?:a |an |its own |their own )?(?:new|separate|fresh|own)(?: chrome| browser)? window$`);
const WINDOW_N = new RegExp(`^${VERB}\\s+(.+?)\\s+(?:to|into|in|onto)\\s+(?:the )?(?:(?:chrome |browser )?window (?:number )?(\\w+)|(\\w+) (?:chrome |browser )?window)$`);

const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5 };

export function moveTabsRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const fresh = NEW_WINDOW.exec(clause);
  const numbered = fresh ? null : WINDOW_N.exec(clause);
  if (!fresh && !numbered) return null;
  const down = chromeDown(ctx.snap);
  if (down) return down;
  const targets = tabsOfPhrase((fresh ?? numbered)![1]!, ctx, { bareMeansAll: true });
  if (!targets) return ask('Move which tabs? Say e.g. "move the github tabs to a new window".', CONFIDENCE.unclearReference);
  if (fresh) return targetsResult(targets, (tabs) => ok({ type: 'move_tabs', tab_indices: tabs.map((t) => t.index), new_window: true }));
  const windows = [...new Set(ctx.snap.tabs.map((t) => t.window_index))].sort((a, b) => a - b);
  const word = (numbered![2] ?? numbered![3])!;
  return targetsResult(targets, (tabs) => {
    let w: number | null | undefined = word === 'last' ? windows[windows.length - 1] : (ORDINALS[word] ?? parseNumber(word));
    if (word === 'other') {
      // The other of exactly two windows, for tabs that are all in one of them.
      const from = new Set(tabs.map((t) => t.window_index));
      w = windows.length === 2 && from.size === 1 ? windows.find((x) => !from.has(x)) : undefined;
    }
    if (w === undefined || w === null || !windows.includes(w)) {
      return ask(`Which window: ${windows.join(', ')}, or a new one? Chrome windows are numbered as "list tabs" shows them.`, CONFIDENCE.ambiguous);
    }
    if (tabs.every((t) => t.window_index === w)) return ask(`${tabs.length === 1 ? 'That tab is' : 'Those tabs are'} already in window ${w}.`, CONFIDENCE.noMatch);
    return ok({ type: 'move_tabs', tab_indices: tabs.map((t) => t.index), window_index: w });
  });
}
