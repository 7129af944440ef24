import { z } from 'zod';
import { ContextSnapshot, TabInfo } from './context';
import { PreparedBatch } from './prepared-batch';
import { ExecReportSchema } from './report';

// The cross-device queue: one Yjs document per user, synced by every device that has
// `sync.url` set. It holds three kinds of things, each checked with these schemas where it is
// read (a row is input from another machine):
//  - device rows: who is there (name, platform, last seen); "online" comes from awareness;
//  - published snapshots: each device's desk, compact (no tab summaries), diffed per tab;
//  - command rows: a discriminated union on `action`. The target device observes the rows
//    addressed to it, marks one taken before it executes it, and writes the result. Status is
//    implicit: a result = answered, none and createdAt + TTL < now = expired (never executed,
//    also by a device waking from sleep), taken = running, else pending.

export { COMMAND_TTL_MS } from './sync-ttl';

/** A row older than this is deleted by any device (its sender and target are both gone). */
export const ROW_MAX_AGE_TTLS = 10;

export const ROW_VERSION = 1 as const;

const id = z.string().regex(/^[\w-]{8,64}$/, { error: 'must be 8 to 64 letters, digits, "-" or "_"' });

export const DeviceName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(60, { error: 'must be at most 60 characters' });

export const DeviceRow = z.strictObject({
  v: z.literal(ROW_VERSION),
  id,
  /** What the user calls it ("work laptop"); changeable (`sync.device_name`). */
  name: DeviceName,
  platform: z.string().max(40),
  version: z.string().max(40),
  /** ms since the epoch, by the device's own clock: its worker refreshes it while it runs. */
  last_seen: z.number().int().nonnegative(),
  /** Set by `deskpilot devices remove`: the server refuses this device from then on. */
  removed_at: z.number().int().nonnegative().optional(),
});
export type DeviceRow = z.infer<typeof DeviceRow>;

/** A published tab: the snapshot's TabInfo without what its place in the tab order gives back. */
export const PublishedTab = TabInfo.omit({ index: true, local_index: true, target_id: true, content_summary: true });
export type PublishedTab = z.infer<typeof PublishedTab>;

/** When a device marked a row taken (its own clock). */
export const RowTaken = z.strictObject({ at: z.number().int().nonnegative() });

const rowBase = {
  v: z.literal(ROW_VERSION),
  id,
  /** The target: only this device executes the row. */
  deviceId: id,
  /** The sender, as the device it is paired as. */
  from: id,
  /** ms since the epoch, by the sender's clock. */
  createdAt: z.number().int().nonnegative(),
  taken: RowTaken.optional(),
};

export const CommandRow = z.discriminatedUnion('action', [
  /** Run a batch prepared against the target's published snapshot; answered with its report. */
  z.strictObject({ ...rowBase, action: z.literal('run'), batch: PreparedBatch, result: ExecReportSchema.optional() }),
  /** Publish a fresh snapshot now (before preparing against it); answered with its time. */
  z.strictObject({ ...rowBase, action: z.literal('publish'), result: z.strictObject({ taken_at: z.string() }).optional() }),
]);
export type CommandRow = z.infer<typeof CommandRow>;
export type CommandAction = CommandRow['action'];
export type RowResult<A extends CommandAction> = NonNullable<Extract<CommandRow, { action: A }>['result']>;

export type RowState = 'answered' | 'expired' | 'taken' | 'pending';

/** The row's status from its fields and the clock: nothing else is stored. */
export function rowState(row: Pick<CommandRow, 'createdAt' | 'taken' | 'result'>, now: number, ttlMs: number): RowState {
  if (row.result !== undefined) return 'answered';
  if (row.createdAt + ttlMs < now) return 'expired';
  return row.taken ? 'taken' : 'pending';
}

/** What `context --all-devices` and the planners see of one device. */
export const DeviceView = z.strictObject({
  device: DeviceRow,
  online: z.boolean(),
  this_device: z.boolean(),
  /** null: nothing published yet, or published by an incompatible version (see `problem`). */
  snapshot: ContextSnapshot.nullable(),
  problem: z.string().nullable(),
});
export type DeviceView = z.infer<typeof DeviceView>;
