import type { Command } from '../../../protocol/commands';
import type { TabInfo } from '../../../protocol/context';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { ok, type ClauseResult } from '../result';
import { oldestCount, splitAge } from '../tab-age-words';
import { ageProblem } from '../tab-needs';
import { targetsResult, tabsOfPhrase } from '../tab-phrase';

// Finding tabs, and the questions about tabs a listing answers: "search my tabs for next.js",
// "which pages mention hash tables" (page text), "how many tabs per site?", "what are my oldest
// tabs?", "which tabs haven't I touched today?", "show me tabs I haven't used in a week".

const SEARCH = /^(?:search|look through|go through|grep)\s+(?:all\s+)?(?:my |the )?(?:open )?tabs\s+(?:for|about)\s+(.+)$|^(?:find|search for|look for)\s+(?:the |my |all )?(?:open )?tabs?\s+(?:about|with|for|containing|that (?:are about|have|contain))\s+(.+)$/;
const PAGE_TEXT = /^(?:search|look through)\s+(?:the |my )?(?:tabs?\s+)?(?:page |pages |tab )?(?:text|contents?|pages)(?: of (?:my |the )?tabs)?\s+for\s+(.+)$|^(?:which|what|find|show(?: me)?)\s+(?:tabs|pages|open pages)\s+(?:that |which )?(?:mention|mentions|say|says|talk about|contain the (?:word|words|text))\s+(.+)$/;
const COUNT = /^(?:how many|count(?: up)?|number of)(?: of)?(?: my| the)?(?: open)? tabs(?: (?:do i have|are open|are there|have i got|i have))?(?: open)?(?: (?:per|by|for each|on each|from each|in each|for every|on every)| grouped by) (?:site|domain|website|web site|host)s?$|^(?:my )?tabs (?:per|by) (?:site|domain|website)s?$/;
const ASKING = /^(?:what|which|show(?: me)?|list|find|give me|get me|tell me)(?: are| were)?\s+/;

const search = (command: Command, ctx: ClauseContext) => chromeDown(ctx.snap) ?? ok(command);

/** The tabs a question or a "show me" picks by age, as search_tabs; null when the clause is not one. */
function byAge(rest: string, ctx: ClauseContext): ClauseResult | null {
  const oldest = oldestCount(rest);
  if (oldest) {
    const age = { oldest: oldest.count ?? 5 };
    return chromeDown(ctx.snap) ?? ageProblem(ctx.snap.tabs, age, ctx.snap) ?? ok({ type: 'search_tabs', ...age });
  }
  // "tabs haven't I touched" reads as "tabs I haven't touched".
  const aged = splitAge(rest.replace(/\b(have|did|had)(nt| not) (i|you)\b/, '$3 $1$2').replace(/\b(have|did) (i|you) not\b/, '$2 $1 not'));
  if (!aged) return null;
  const down = chromeDown(ctx.snap);
  if (down) return down;
  const build = (tabs: TabInfo[], indices: boolean) =>
    ageProblem(tabs, aged.age, ctx.snap) ?? ok({ type: 'search_tabs', ...(indices ? { tab_indices: tabs.map((t) => t.index) } : {}), ...aged.age });
  if (/^(?:the |my |all |all my |all the )?(?:open )?tabs?$|^$/.test(aged.rest)) return build(ctx.snap.tabs, false);
  const targets = tabsOfPhrase(aged.rest, ctx, { bareMeansAll: true });
  return targets ? targetsResult(targets, (tabs) => build(tabs, true)) : null;
}

export function searchTabsRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  if (COUNT.test(clause)) return chromeDown(ctx.snap) ?? ok({ type: 'count_tabs_by_domain' });
  const text = PAGE_TEXT.exec(clause);
  if (text) return search({ type: 'search_tabs', query: (text[1] ?? text[2])!.trim(), page_text: true }, ctx);
  const words = SEARCH.exec(clause);
  if (words) return search({ type: 'search_tabs', query: (words[1] ?? words[2])!.trim() }, ctx);
  const asking = ASKING.exec(clause);
  if (asking) return byAge(clause.slice(asking[0].length), ctx);
  return null;
}


