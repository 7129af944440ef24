import { z } from 'zod';

// One undoable batch: where each window it touched was before, and what cannot come back.

const Rect = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);

export const UndoWindow = z.strictObject({
  id: z.string(),
  app: z.string(),
  title: z.string(),
  before: Rect,
  minimized: z.boolean(),
});
export type UndoWindow = z.infer<typeof UndoWindow>;

export const UndoEntry = z.strictObject({
  batchId: z.string(),
  at: z.number().int(),
  /** What the batch did, in words ("move XTerm to the right monitor"). */
  label: z.string(),
  windows: z.array(UndoWindow),
  /** The window that had focus before the batch, refocused on undo. */
  focused: z.string().nullable(),
  /** Effects undo cannot reverse, said rather than pretended ("closed XClock"). */
  irreversible: z.array(z.string()),
});
export type UndoEntry = z.infer<typeof UndoEntry>;

export const UndoFile = z.strictObject({ version: z.literal(1), entries: z.array(UndoEntry) });
