import type { ClauseContext } from '../clause-context';
import type { ClauseResult } from '../result';
import { switchTo } from '../switch-target';

// "switch to reddit", "go to the github tab", "show me gmail", "take me to youtube",
// "focus terminal", "bring up chrome". Going somewhere ("go to", "take me to") opens the site
// when no tab of it is open; switching ("switch to", "show me") asks instead.

const VERB =
  /^(switch over to|switch back to|switch to|swap to|go over to|go back to|go to|goto|take me to|bring me to|get me to|show me|show|bring up|pull up|jump over to|jump back to|jump to|focus on|focus|navigate to|head over to|head to|flip over to|flip to|change to|return to|back to|select|view|activate|bring forward|bring|give me|raise|check on|check|look at|read)\s+(.+)$/;
const GOING = new Set(['go over to', 'go to', 'goto', 'take me to', 'bring me to', 'get me to', 'navigate to', 'head over to', 'head to']);

export function switchRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const m = VERB.exec(clause);
  if (!m) return null;
  const target = m[2]!.replace(/\s+(?:to the front|to front|forward|up)$/, '');
  return switchTo(target, ctx, { openWhenMissing: GOING.has(m[1]!), verb: m[1]! });
}
