import type { Command, CommandType } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { TAB_OP_TYPES } from '../tab-op-types';
import { CONFIDENCE, type ClauseResult } from './result';

// A command whose backend is down would only fail at resolution, after the user has waited
// for nothing; asking now says why. The groups mirror the resolver's (resolve.ts).

const CHROME: ReadonlySet<CommandType> = new Set(['list_tabs', 'switch_tab', 'open_url', 'close_tab', ...TAB_OP_TYPES]);
const WINDOWS: ReadonlySet<CommandType> = new Set(['list_apps', 'focus_app', 'place_app', 'close_app', 'activate_preset', 'undo']);

const down = (reason: string): ClauseResult => ({ kind: 'ask', reason, confidence: CONFIDENCE.unavailable, backendDown: true });

export const chromeDown = (snap: ContextSnapshot): ClauseResult | null =>
  snap.sources.chrome.ok ? null : down(`Chrome isn't connected: ${snap.sources.chrome.message}`);

export const windowsDown = (snap: ContextSnapshot): ClauseResult | null =>
  snap.sources.windows.ok ? null : down(`Windows can't be controlled: ${snap.sources.windows.message}`);

/** The first missing backend these commands need, as a question; null when all are there. */
export function unavailable(commands: readonly Command[], snap: ContextSnapshot): ClauseResult | null {
  if (commands.some((c) => CHROME.has(c.type))) {
    const down = chromeDown(snap);
    if (down) return down;
  }
  if (commands.some((c) => WINDOWS.has(c.type))) {
    const down = windowsDown(snap);
    if (down) return down;
  }
  if (commands.some((c) => c.type === 'activate_preset') && !snap.sources.presets.ok) {
    return down(`Presets can't be read: ${snap.sources.presets.message}`);
  }
  return null;
}
