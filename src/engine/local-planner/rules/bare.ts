import type { ClauseContext } from '../clause-context';
import type { ClauseResult } from '../result';
import { switchTo } from '../switch-target';

// A clause that is only a name: "reddit", "code space", "slack", "the deskpilot issues tab".
// It means "bring it up", but with no verb to go on, only strong matches count and anything
// else is "not understood" rather than a question about a target that may not be one.

// Words said to an assistant that are not names, even if some tab's title contains them.
const NOT_NAMES = new Set([
  'yes', 'no', 'nope', 'yep', 'cancel', 'stop', 'nevermind', 'never mind', 'help', 'thanks', 'thank you', 'hi', 'hello',
  'sorry', 'wait', 'again', 'more', 'less', 'bigger', 'smaller', 'up', 'down', 'back', 'next', 'previous', 'done', 'it',
  'this', 'that', 'what', 'why', 'how', 'test', 'testing',
]);

export function bareRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  if (clause.split(' ').length > 6 || NOT_NAMES.has(clause)) return null;
  return switchTo(clause, ctx, { bare: true });
}
