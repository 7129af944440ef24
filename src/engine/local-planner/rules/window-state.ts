import { windowsDown } from '../availability';
import { runningAppTarget } from '../app-targets';
import type { ClauseContext } from '../clause-context';
import { askWhichAppToPlace, namesSomething } from '../object-words';
import { ok, type ClauseResult } from '../result';
import type { WindowState } from '../../../protocol/window-layouts';

// Minimise, restore, and a true full-screen mode: "minimise slack", "hide the clock",
// "restore zoom", "unminimize chrome", "put chrome in fullscreen mode", "exit full screen".
// "full screen" is the full-screen mode whether or not "mode" is said ("fullscreen vlc", "make
// zotero full screen", issue 26); "maximise" stays a layout (place.ts): the window fills the
// screen with its title bar. "blow up code to full screen" and "… full screen on the left
// monitor" name a size or a place and stay layouts too.

const FULL = '(?:full ?screen|full-screen)';
const MODE = `${FULL} mode`;
// The fourth field: the words before the state need not be an app ("blow up code to full
// screen" is a size for place.ts), so no match there leaves the clause to the other rules.
const PATTERNS: Array<[RegExp, WindowState, number, boolean?]> = [
  [/^(?:minimi[sz]e|minimi[sz]ed|iconify|hide|collapse)\s+(.+)$/, 'minimized', 1],
  [/^(.+?)\s+(?:minimi[sz]ed|to the (?:dock|taskbar))$/, 'minimized', 1],
  [/^(?:restore|unminimi[sz]e|un-minimi[sz]e|unhide|un-hide)\s+(.+)$/, 'normal', 1],
  [new RegExp(`^(?:exit|leave|quit|get out of) (?:full ?screen|full-screen)(?: mode)?(?: (?:on|in|for) (.+))?$`), 'normal', 1],
  [new RegExp(`^(?:take|get|bring) (.+?) out of (?:full ?screen|full-screen)(?: mode)?$`), 'normal', 1],
  [new RegExp(`^(.+?) (?:out of|off) ${FULL}(?: mode)?$`), 'normal', 1, true],
  [new RegExp(`^${FULL} (.+)$`), 'fullscreen', 1],
  [new RegExp(`^(?:make|set|turn|put|switch|go) (.+?) ${FULL}$`), 'fullscreen', 1],
  [new RegExp(`^(.+?) (?:to |in )?${FULL}$`), 'fullscreen', 1, true],
  [new RegExp(`^(?:put|set|switch|turn|make) (.+?) (?:in|into|to) ${MODE}$`), 'fullscreen', 1],
  [new RegExp(`^(?:enter|go into|go to|start) ${MODE}(?: (?:on|in|for) (.+))?$`), 'fullscreen', 1],
  [new RegExp(`^(.+?) (?:in|into) ${MODE}$`), 'fullscreen', 1],
];

export function windowStateRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  for (const [re, state, group, lenient = false] of PATTERNS) {
    const m = re.exec(clause);
    if (!m) continue;
    // "exit full screen" with no app: the one just acted on, or a question.
    const phrase = m[group] ?? (ctx.referent ? 'it' : null);
    if (!phrase || (m[group] !== undefined && !namesSomething(phrase))) return askWhichAppToPlace(state === 'normal' ? 'restore' : state === 'minimized' ? 'minimise' : 'make full screen');
    const target = runningAppTarget(phrase, ctx, lenient);
    if (!target) return null;
    if ('result' in target) return target.result;
    return windowsDown(ctx.snap) ?? ok({ type: 'set_app_state', app_name: target.app.name, state });
  }
  return null;
}
