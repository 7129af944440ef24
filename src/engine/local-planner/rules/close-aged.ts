import type { TabInfo } from '../../../protocol/context';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { oldestCount, splitAge } from '../tab-age-words';
import { ageProblem } from '../tab-needs';
import { endTabs, targetsResult, tabsOfPhrase } from '../tab-phrase';
import { closeTabs } from '../tab-numbers';

// Closing tabs by age or by place in the list, before the close rule reads the rest:
// "close tabs older than a week", "close youtube tabs I haven't used today", "close my 2 oldest
// tabs", "close the last 5 tabs", "close the first tab". The last N are the last N of the tab
// list, as "list tabs" numbers them.

const VERB = /^(?:close|close out|shut|kill|get rid of|remove|dismiss)\s+(.+)$/;
const ALL = /^(?:all |every )?(?:of )?(?:the |my |all the |all my )?(?:open )?tabs?$|^$/;

export function closeAgedRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const m = VERB.exec(clause);
  if (!m) return null;
  const phrase = m[1]!.replace(/\s+(?:in|from) (?:chrome|the browser|my browser)$/, '').trim();
  const end = endTabs(phrase, ctx.snap.tabs);
  if (end) return chromeDown(ctx.snap) ?? targetsResult(end, closeTabs);
  const oldest = oldestCount(phrase);
  if (oldest) {
    if (oldest.count === null) return ask('Close how many of your oldest tabs? Say e.g. "close my 5 oldest tabs".', CONFIDENCE.ambiguous);
    const age = { oldest: oldest.count };
    return chromeDown(ctx.snap) ?? ageProblem(ctx.snap.tabs, age, ctx.snap) ?? ok({ type: 'close_tab', ...age });
  }
  const aged = splitAge(phrase);
  if (!aged) return null;
  const down = chromeDown(ctx.snap);
  if (down) return down;
  const build = (tabs: TabInfo[], indices: boolean) =>
    ageProblem(tabs, aged.age, ctx.snap) ?? ok({ type: 'close_tab', ...(indices ? { tab_indices: tabs.map((t) => t.index) } : {}), ...aged.age });
  if (ALL.test(aged.rest)) return build(ctx.snap.tabs, false);
  const targets = tabsOfPhrase(aged.rest, ctx, { bareMeansAll: true });
  return targets ? targetsResult(targets, (tabs) => build(tabs, true)) : null;
}
