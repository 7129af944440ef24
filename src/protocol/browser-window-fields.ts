import { z } from 'zod';

// Where tabs go: a browser window. `window_id` already names a desktop (OS) window, so a
// browser window is named by the browser's own id, `browser_window_id` — the CDP windowId
// (chrome.windows' id too), the name the snapshot gives it on each tab and on each linked
// running_apps window. It stays the same while that window is open and is never reused, so an
// id from an old snapshot names no window rather than another one. A new window is
// `new_window: true`; a place in the window's tab strip is `position` (1 = first), like a
// tab's 1-based local_index.

export const MAX_BROWSER_WINDOW_ID = 2 ** 31 - 1;

export const BROWSER_WINDOW_ID = z
  .number({ error: 'must be a browser window id (an integer) from the context' })
  .int({ error: 'must be a browser window id (an integer) from the context' })
  .min(1, { error: 'must be a browser window id (a positive integer) from the context' })
  .max(MAX_BROWSER_WINDOW_ID, { error: `must be at most ${MAX_BROWSER_WINDOW_ID}` })
  .optional()
  .describe('Chrome window id (browser_window_id in the context).');

export const NEW_WINDOW = z
  .literal(true, { error: 'must be true (leave it out otherwise)' })
  .optional()
  .describe('true: a new window.');

export const POSITION = z
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .min(1, { error: 'must be a positive integer (1 = first)' })
  .max(500, { error: 'must be at most 500' })
  .optional()
  .describe("1 = first in that window's tabs (default: last).");

type Where = { browser_window_id?: number | undefined; new_window?: boolean | undefined };

/** A new window or a given one, not both. */
export function oneWindowAtMost(type: string): [(c: Where) => boolean, { error: string; path: string[] }] {
  return [
    (c: Where) => c.browser_window_id === undefined || c.new_window !== true,
    { error: `${type} takes "new_window" or "browser_window_id", not both`, path: ['browser_window_id'] },
  ];
}
