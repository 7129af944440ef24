import { z } from 'zod';
import { MAX_BROWSER_WINDOW_ID } from '../../protocol/browser-window-fields';
import { ToolError } from './tool-error';

// Where the tab tools that open or move tabs put them (issue 27): a new Chrome window, or one
// by its browser_window_id (list_windows and desktop_snapshot give it; Chrome never reuses
// one, so an id of a closed window is refused and nothing opens or moves).

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

/** The protocol's fields for the window asked for: none, new_window, or browser_window_id (not both). */
export function windowFields(args: { new_window?: boolean | undefined; browser_window_id?: number | undefined }): { new_window?: true; browser_window_id?: number } {
  if (args.new_window && args.browser_window_id !== undefined) throw new ToolError('Give new_window: true or browser_window_id, not both.', 'invalid_argument');
  if (args.new_window) return { new_window: true };
  return args.browser_window_id !== undefined ? { browser_window_id: args.browser_window_id } : {};
}
