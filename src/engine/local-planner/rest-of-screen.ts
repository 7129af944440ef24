import type { Command } from '../../protocol/commands';
import type { Layout } from '../../protocol/window-layouts';
import { runningAppTarget } from './app-targets';
import type { ClauseContext } from './clause-context';
import { roleFor } from './placement';
import { ok, type ClauseResult } from './result';

// "vs code on the right two thirds and the terminal in what is left": the second app takes the
// part of the same monitor the first one left free. Only a layout has a known remainder; the
// remainder is on the monitor the first app was put on (or is on), so both end up side by side.

const REST = /^(.+?)\s+(?:in|into|on|to|gets|takes|fills)\s+(?:what is left|what remains|the rest(?: of (?:the |it|the screen))?|the remaining (?:space|part)|the remainder|the other part)$/;

const REMAINDER: Partial<Record<Layout, Layout>> = {
  first_two_thirds: 'last_third',
  last_two_thirds: 'first_third',
  first_third: 'last_two_thirds',
  last_third: 'first_two_thirds',
};

/** The clause for "<app> in what is left" after `before`; null when the words are not that or nothing is left over. */
export function restOfScreen(clause: string, before: readonly Command[], ctx: ClauseContext): ClauseResult | null {
  const m = REST.exec(clause);
  const last = before[before.length - 1];
  if (!m || last?.type !== 'place_app' || !last.layout) return null;
  const layout = REMAINDER[last.layout];
  if (!layout) return null;
  const target = runningAppTarget(m[1]!, ctx, true);
  if (!target) return null;
  if ('result' in target) return target.result;
  const firstOn = ctx.snap.running_apps.find((a) => a.name === last.app_name)?.windows[0]?.monitor;
  const monitorInfo = ctx.snap.monitors.find((x) => x.name === firstOn);
  const monitor = last.monitor ?? (monitorInfo ? roleFor(monitorInfo) : null);
  return ok({ type: 'place_app', app_name: target.app.name, layout, ...(monitor ? { monitor } : {}) });
}
