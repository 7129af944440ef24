import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_TAB_INDICES, MAX_URL_LENGTH } from './commands';
import { uniqueNames } from './unique-names';

// A saved set of tabs ("research"): each tab's address and title, in tab order, so restore_tabs
// can open them again later, on this desk or (once synced) another one.

export const SavedTab = z.strictObject({
  url: z.string().trim().min(1).max(MAX_URL_LENGTH),
  title: z.string().max(4096),
  pinned: z.boolean().default(false),
});
export type SavedTab = z.infer<typeof SavedTab>;

export const TabCollection = z.strictObject({
  name: z.string().trim().min(1, { error: 'must be a non-empty string' }).max(MAX_NAME_LENGTH),
  saved_at: z.string().describe('ISO 8601'),
  tabs: z.array(SavedTab).min(1).max(MAX_TAB_INDICES),
});
export type TabCollection = z.infer<typeof TabCollection>;

export const TabCollectionFile = z
  .strictObject({ version: z.literal(1), collections: z.array(TabCollection) })
  .superRefine(uniqueNames('collections', 'saved set'));
export type TabCollectionFile = z.infer<typeof TabCollectionFile>;
