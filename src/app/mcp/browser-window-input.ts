import { z } from 'zod';
import { MAX_BROWSER_WINDOW_ID } from '../../protocol/browser-window-fields';
import type { McpContext } from './define-tool';
import { snapshotId } from './fields';
import { SNAPSHOT_TTL_MS } from './snapshot-store';
import { ToolError } from './tool-error';

// Where the tab tools that open or restore tabs put them (issue 27): a new Chrome window, one
// by its browser_window_id (list_windows and desktop_snapshot give it; Chrome never reuses
// one, so an id of a closed window is refused and nothing opens), or one as list_tabs numbers
// it (w, with that listing's snapshot_id), turned here into the id it had in that listing.

export const browserWindowInput = {
  new_window: z.boolean({ error: 'must be true or false' }).optional().describe('true: in a new Chrome window.'),
  browser_window_id: z
    .number({ error: 'must be a browser window id (an integer)' })
    .int({ error: 'must be a browser window id (an integer)' })
    .min(1)
    .max(MAX_BROWSER_WINDOW_ID)
    .optional()
    .describe('A Chrome window by its id (browser_window_id in list_windows / desktop_snapshot). A window that is not open is refused; nothing opens.'),
};

/** open_url and restore_tabs also take the window as list_tabs shows it. */
export const listedWindowInput = {
  window: z.number({ error: 'must be a positive integer' }).int().min(1).max(100).optional().describe('A Chrome window as list_tabs numbers it (w), with that listing\'s snapshot_id.'),
  snapshot_id: snapshotId.optional(),
};

type WindowArgs = { new_window?: boolean | undefined; browser_window_id?: number | undefined; window?: number | undefined; snapshot_id?: string | undefined };

/** The protocol's fields for the window asked for: none, new_window, or browser_window_id (one way at most). */
export function windowFields(args: WindowArgs, ctx?: McpContext): { new_window?: true; browser_window_id?: number } {
  const ways = [args.new_window === true, args.browser_window_id !== undefined, args.window !== undefined].filter(Boolean).length;
  if (ways > 1) throw new ToolError('Give one of new_window: true, browser_window_id or window (with snapshot_id), not several.', 'invalid_argument');
  if (args.new_window) return { new_window: true };
  if (args.browser_window_id !== undefined) return { browser_window_id: args.browser_window_id };
  if (args.window === undefined || !ctx) return {};
  return { browser_window_id: listedWindow(ctx, args.window, args.snapshot_id) };
}

function listedWindow(ctx: McpContext, w: number, id: string | undefined): number {
  if (id === undefined) throw new ToolError('window needs the snapshot_id of the list_tabs answer that numbered it.', 'invalid_argument');
  const snap = ctx.snapshots.get(id);
  if (!snap) throw new ToolError(`snapshot_id "${id}" is unknown or expired (snapshots are kept ${SNAPSHOT_TTL_MS / 60_000} minutes). Call list_tabs for a fresh one.`, 'stale');
  const ids = new Set(snap.tabs.filter((t) => t.window_index === w).map((t) => t.browser_window_id));
  const [only] = [...ids];
  if (ids.size === 1 && only !== undefined) return only;
  const there = [...new Set(snap.tabs.map((t) => t.window_index))].join(', ') || 'none';
  throw new ToolError(ids.size === 0 ? `That listing has no Chrome window ${w} (windows: ${there}).` : `Chrome did not give window ${w}'s id; use new_window, or list_windows' browser_window_id.`, 'invalid_argument');
}
