import { z } from 'zod';
import { MAX_AGE_HOURS, MAX_NAME_LENGTH, MAX_TAB_INDICES } from '../../protocol/commands';
import { ConfirmToken } from '../../protocol/confirm-token';

// Argument fields several tools share, each described once, for the model.

/** Trimmed text, not empty, at most `max` characters. */
export const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });

export const snapshotId = text(40).describe('The snapshot_id that list_tabs, search_tabs or desktop_snapshot returned together with the tab indices you use.');

export const tabIndex = z
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .min(1, { error: 'must be a positive integer (tab indices start at 1)' });

export const tabId = text(200);

export const appName = text(MAX_NAME_LENGTH);

/** One of an app's windows, by the id list_windows gives (window_id). */
export const windowId = text(200).describe("A window's id from list_windows (window_id), for one of an app's windows; default: its most recent.");

export const tabIndices = z
  .array(tabIndex, { error: 'must be an array of positive integers' })
  .min(1, { error: 'must list at least one tab index' })
  .max(MAX_TAB_INDICES, { error: `must list at most ${MAX_TAB_INDICES} tabs` });

export const confirm = z
  .boolean({ error: 'must be true or false' })
  .optional()
  .describe('Not how a yes is given: pass confirm_token instead (confirm: true alone runs nothing and is answered with what to do).');

export const confirmToken = ConfirmToken.optional().describe(
  'After the user said yes to exactly what an earlier call of this tool showed: the confirm_token it gave, with the same arguments. ' +
    'Runs that batch and nothing else (once, within 2 minutes); refused if the desk changed since.',
);

/** The two confirmation fields of every tool that may close something. */
export const confirmFields = { confirm, confirm_token: confirmToken };

export const summaries = z
  .boolean({ error: 'must be true or false' })
  .optional()
  .describe("Also read each tab's description or first words (slower; helps tell similar tabs apart). Default false.");

const hours = z.number({ error: 'must be a positive integer' }).int({ error: 'must be a positive integer' }).min(1, { error: 'must be a positive integer' }).max(MAX_AGE_HOURS);

/** Tabs picked by when they were last used (search_tabs, save_tabs). */
export const ages = {
  unused_for_hours: hours.optional().describe('Only tabs not used (selected) for at least this many hours; a week is 168.'),
  unused_today: z.boolean({ error: 'must be true or false' }).optional().describe('true: only tabs not used since midnight.'),
  oldest: z.number({ error: 'must be a positive integer' }).int().min(1).max(MAX_TAB_INDICES).optional().describe('Only the N tabs used longest ago.'),
};
