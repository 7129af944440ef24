import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { ok, type ClauseResult } from '../result';
import { thisTab } from '../tab-targets';
import { targetsResult, tabsOfPhrase } from '../tab-phrase';

// "reload gmail", "refresh this page", "hard reload the github tabs", "reload tab 3 without the
// cache". A bare name means every tab of it; "reload" alone is the tab in front.

const VERB = /^(hard reload|hard refresh|force reload|force refresh|reload|refresh)(?:\s+(.+?))?$/;
const NO_CACHE = /\s+(?:without|bypassing|ignoring|skipping|and clear) (?:the |its |their )?cache$|\s+(?:hard|fully|completely)$/;
const THIS = /^(?:it|this|the page|this page|the tab|the current page)$/;

export function reloadRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const m = VERB.exec(clause);
  if (!m) return null;
  let phrase = (m[2] ?? '').trim();
  const hard = m[1]!.startsWith('hard') || m[1]!.startsWith('force') || NO_CACHE.test(phrase);
  phrase = phrase.replace(NO_CACHE, '').trim();
  const down = chromeDown(ctx.snap);
  if (down) return down;
  const targets = phrase === '' || THIS.test(phrase) ? thisTab(ctx.snap) : tabsOfPhrase(phrase, ctx, { bareMeansAll: true });
  if (!targets) return null;
  return targetsResult(targets, (tabs) => ok({ type: 'reload_tabs', tab_indices: tabs.map((t) => t.index), ...(hard ? { ignore_cache: true } : {}) }));
}
