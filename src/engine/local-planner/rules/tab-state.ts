import type { TabInfo } from '../../../protocol/context';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { companionDown } from '../tab-needs';
import { targetsResult, tabsOfPhrase } from '../tab-phrase';

// "pin this tab", "unpin gmail", "mute youtube", "unmute all", "silence the lofi tab". A bare
// site means every tab of it: muting twice is harmless. Of several tabs named at once only
// those not already so are listed (when the extension says which); none left is said.

const VERB = /^(pin|unpin|mute|unmute|silence|unsilence)\s+(.+)$/;

export function tabStateRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const m = VERB.exec(clause);
  if (!m) return null;
  const verb = m[1]!;
  const pin = verb === 'pin' || verb === 'unpin';
  const value = verb === 'pin' || verb === 'mute' || verb === 'silence';
  const field = pin ? 'pinned' : 'muted';
  const doing = pin ? (value ? 'Pinning' : 'Unpinning') : value ? 'Muting' : 'Unmuting';
  const down = chromeDown(ctx.snap) ?? companionDown(ctx.snap, doing);
  if (down) return down;
  const targets = tabsOfPhrase(m[2]!, ctx, { bareMeansAll: true });
  if (!targets) return ask(`${doing} which tab? Say e.g. "${pin ? 'pin' : 'mute'} this tab" or "${pin ? 'pin' : 'mute'} youtube".`, CONFIDENCE.unclearReference);
  return targetsResult(targets, (tabs) => {
    const changing = tabs.length > 1 ? tabs.filter((t) => t[field] !== value) : tabs;
    if (changing.length === 0) return ask(`${tabs.length === ctx.snap.tabs.length ? 'Every tab is' : 'Those tabs are'} already ${value ? '' : 'not '}${field}.`, CONFIDENCE.noMatch);
    const indices = changing.map((t: TabInfo) => t.index);
    return ok(pin ? { type: 'pin_tabs', tab_indices: indices, pinned: value } : { type: 'mute_tabs', tab_indices: indices, muted: value });
  });
}
