import { findDuplicates } from '../../tab-duplicates';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { targetsResult, tabsOfPhrase } from '../tab-phrase';

// "close duplicate tabs", "close duplicates", "dedupe my tabs", "close the duplicate github
// tabs". The resolver picks which copy stays (the active, else the most recently used one);
// with no two tabs alike there is nothing to do, and that is said.

const DUPES = '(?:duplicate|duplicated|dupe|dup|double|repeated|identical)s?';
const CLOSE = new RegExp(`^(?:close|remove|kill|get rid of|delete|clean up|clear)\\s+(?:all\\s+)?(?:the\\s+|my\\s+)?(?:${DUPES}|tabs that are ${DUPES}|${DUPES} tabs)(?:\\s+(.+?))?(?:\\s+tabs)?$`);
const DEDUPE = /^(?:dedupe|dedup|deduplicate|de-duplicate)\s*(?:my |the |all )?(.*?)(?:\s*tabs)?$/;

export function duplicatesRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const m = CLOSE.exec(clause) ?? DEDUPE.exec(clause);
  if (!m) return null;
  const down = chromeDown(ctx.snap);
  if (down) return down;
  const scope = (m[1] ?? '').replace(/^(?:of |among |in |from )/, '').replace(/^(?:all |my |the |open )*tabs?$/, '').trim();
  const run = (tabs: typeof ctx.snap.tabs, indices: number[] | null) =>
    findDuplicates(tabs).close.length === 0
      ? ask(`No two ${indices ? 'of those tabs' : 'open tabs'} show the same address.`, CONFIDENCE.noMatch)
      : ok(indices ? { type: 'close_duplicate_tabs', tab_indices: indices } : { type: 'close_duplicate_tabs' });
  if (!scope) return run(ctx.snap.tabs, null);
  const targets = tabsOfPhrase(scope, ctx, { bareMeansAll: true });
  if (!targets) return null;
  return targetsResult(targets, (tabs) => run(tabs, tabs.map((t) => t.index)));
}
