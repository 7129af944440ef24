import { z } from 'zod';

// One undoable batch: where each window it touched was before, how each tab it changed was,
// and what cannot come back.

const Rect = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);

export const UndoWindow = z.strictObject({
  id: z.string(),
  app: z.string(),
  title: z.string(),
  before: Rect,
  minimized: z.boolean(),
  /** In full screen before (absent in older entries: not). */
  fullscreen: z.boolean().optional(),
  /** In a tiling compositor's layout before (sway, i3): undo tiles it again (absent: not). */
  tiled: z.boolean().optional(),
});
export type UndoWindow = z.infer<typeof UndoWindow>;

const targetId = z.string().min(1);
const Place = z.strictObject({ window_id: z.number().int(), index: z.number().int().nonnegative() });
const Group = z.strictObject({ group_id: z.number().int(), window_id: z.number().int(), title: z.string(), color: z.string() });

/**
 * One tab a batch changed, with what undo needs to put it back. `label` names it for the report
 * ('tab 3 "Inbox" (mail.google.com)'). Closed tabs come back from their address, at their old
 * place when the window is still open (and the companion extension answers).
 */
export const UndoTab = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('pinned'), target_id: targetId, label: z.string(), before: z.boolean() }),
  z.strictObject({ kind: z.literal('muted'), target_id: targetId, label: z.string(), before: z.boolean() }),
  z.strictObject({ kind: z.literal('group'), target_id: targetId, label: z.string(), before: Group.nullable() }),
  z.strictObject({ kind: z.literal('moved'), target_id: targetId, label: z.string(), before: Place }),
  z.strictObject({ kind: z.literal('closed'), label: z.string(), url: z.string(), place: Place.nullable(), pinned: z.boolean() }),
  /** A tab the batch opened (restore_tabs, a move by reopening): undo closes it. */
  z.strictObject({ kind: z.literal('opened'), target_id: targetId, label: z.string() }),
]);
export type UndoTab = z.infer<typeof UndoTab>;

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
  /** Tabs the batch changed, in the order changed (absent in entries written before tabs could be undone). */
  tabs: z.array(UndoTab).optional(),
  /**
   * Written before the batch's first command and completed after its last: still set, the batch
   * stopped part-way (DeskPilot was killed while running it), and holds what it had done until then.
   */
  pending: z.literal(true).optional(),
});
export type UndoEntry = z.infer<typeof UndoEntry>;

export const UndoFile = z.strictObject({ version: z.literal(1), entries: z.array(UndoEntry) });
