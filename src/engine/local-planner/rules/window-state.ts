import { windowsDown } from '../availability';
import { runningAppTarget } from '../app-targets';
import type { ClauseContext } from '../clause-context';
import { askWhichAppToPlace } from '../object-words';
import { ok, type ClauseResult } from '../result';
import type { WindowState } from '../../../protocol/window-layouts';

// Minimise, restore, and a true full-screen mode: "minimise slack", "hide the clock",
// "restore zoom", "unminimize chrome", "put chrome in fullscreen mode", "exit full screen".
// Plain "full screen" / "maximise" stay a layout (place.ts): what people mostly mean is a
// window filling the screen with its title bar, which every app allows.

const MODE = '(?:full ?screen|full-screen) mode';
const PATTERNS: Array<[RegExp, WindowState, number]> = [
  [/^(?:minimi[sz]e|minimi[sz]ed|iconify|hide|collapse)\s+(.+)$/, 'minimized', 1],
  [/^(.+?)\s+(?:minimi[sz]ed|to the (?:dock|taskbar))$/, 'minimized', 1],
  [/^(?:restore|unminimi[sz]e|un-minimi[sz]e|unhide|un-hide)\s+(.+)$/, 'normal', 1],
  [new RegExp(`^(?:exit|leave|quit|get out of) (?:full ?screen|full-screen)(?: mode)?(?: (?:on|in|for) (.+))?$`), 'normal', 1],
  [new RegExp(`^(?:take|get|bring) (.+?) out of (?:full ?screen|full-screen)(?: mode)?$`), 'normal', 1],
  [new RegExp(`^(?:put|set|switch|turn|make) (.+?) (?:in|into|to) ${MODE}$`), 'fullscreen', 1],
  [new RegExp(`^(?:enter|go into|go to|start) ${MODE}(?: (?:on|in|for) (.+))?$`), 'fullscreen', 1],
  [new RegExp(`^(.+?) (?:in|into) ${MODE}$`), 'fullscreen', 1],
];

export function windowStateRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  for (const [re, state, group] of PATTERNS) {
    const m = re.exec(clause);
    if (!m) continue;
    // "exit full screen" with no app: the one just acted on, or a question.
    const phrase = m[group] ?? (ctx.referent ? 'it' : null);
    if (!phrase) return askWhichAppToPlace(state === 'normal' ? 'restore' : state === 'minimized' ? 'minimise' : 'make full screen');
    const target = runningAppTarget(phrase, ctx, false);
    if (!target) return null;
    if ('result' in target) return target.result;
    return windowsDown(ctx.snap) ?? ok({ type: 'set_app_state', app_name: target.app.name, state });
  }
  return null;
}
