import { z } from 'zod';
import { ContextSnapshot, TabInfo } from './context';
import { PreparedBatch } from './prepared-batch';
import { ExecReportSchema } from './report';

// The cross-device queue: one Yjs document per user, synced by every device that has
// `sync.url` set. The sync server and the network are untrusted: commands, results and
// published desks are in the document only encrypted under the user's document key, and rows
// and results are signed by the device that wrote them (src/platform/sync/sealed-doc.ts).
// It holds these kinds of things, each checked with these schemas where it is read (a row is
// input from another machine):
//  - device rows: who is there (name, platform, last seen); "online" comes from awareness;
//  - published snapshots: each device's desk, compact (no tab summaries), diffed per tab;
//  - command rows: a discriminated union on `action`. The target device observes the rows
//    addressed to it, marks one taken before it executes it, and writes the result. Status is
//    implicit: a result = answered, none and createdAt + TTL < now = expired (never executed,
//    also by a device waking from sleep), taken = running, else pending.

export { COMMAND_TTL_MS } from './sync-ttl';

/** A row older than this is deleted by any device (its sender and target are both gone). */
export const ROW_MAX_AGE_TTLS = 10;

/** Version 2: signed and encrypted (a version-1 row, plaintext and unsigned, is never run). */
export const ROW_VERSION = 2 as const;

const id = z.string().regex(/^[\w-]{8,64}$/, { error: 'must be 8 to 64 letters, digits, "-" or "_"' });

export const DeviceName = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(60, { error: 'must be at most 60 characters' });

/** A device's row: who is there. Plaintext (the server sees names); it decides no trust. */
export const DeviceRow = z.strictObject({
  v: z.literal(1),
  id,
  /** What the user calls it ("work laptop"); changeable (`sync.device_name`). */
  name: DeviceName,
  platform: z.string().max(40),
  version: z.string().max(40),
  /** ms since the epoch, by the device's own clock: its worker refreshes it while it runs. */
  last_seen: z.number().int().nonnegative(),
  /** Set by `deskpilot devices remove`: the server refuses this device's connection from then on (desks go by their own trust lists). */
  removed_at: z.number().int().nonnegative().optional(),
});
export type DeviceRow = z.infer<typeof DeviceRow>;

/** A published tab: the snapshot's TabInfo without what its place in the tab order gives back. */
export const PublishedTab = TabInfo.omit({ index: true, local_index: true, target_id: true, content_summary: true });
export type PublishedTab = z.infer<typeof PublishedTab>;

/** When a device marked a row taken (its own clock). */
export const RowTaken = z.strictObject({ at: z.number().int().nonnegative() });

const b64 = (min: number, max: number) => z.string().regex(/^[A-Za-z0-9_-]*$/, { error: 'must be base64url' }).min(min).max(max);
const SIG = b64(86, 86);
/** Up to 4 MB of ciphertext: a batch's report with the data of 300 tabs fits. */
const CT = b64(22, 6_000_000);
const NONCE = b64(16, 16);

/**
 * A command row as it is in the document: the header in the clear (the server routes nothing by
 * it; the target needs it to find its rows), the body (action, batch, who asked) encrypted under
 * the document key of `epoch` with the header as additional data, and the sender's signature over
 * everything else. `taken` is signed by the target; `result` is encrypted and signed by it.
 */
export const WireRow = z.strictObject({
  v: z.literal(ROW_VERSION),
  id,
  to: id,
  from: id,
  created_at: z.number().int().nonnegative(),
  epoch: z.number().int().positive(),
  nonce: NONCE,
  ct: CT,
  sig: SIG,
  taken: z.strictObject({ at: z.number().int().nonnegative(), sig: SIG }).optional(),
  result: z.strictObject({ nonce: NONCE, ct: CT, sig: SIG }).optional(),
});
export type WireRow = z.infer<typeof WireRow>;

/** A published part or tab: encrypted under the document key of `e`. */
export const SealedValue = z.strictObject({ e: z.number().int().positive(), nonce: NONCE, ct: CT });
export type SealedValue = z.infer<typeof SealedValue>;

/** Who asked on the sender, shown to the target's user as who asked, never as consent. */
export const AskedBy = z.string().max(200).nullable();

/** A command row as read (verified and decrypted) or about to be written: never stored like this. */
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
  z.strictObject({ ...rowBase, action: z.literal('run'), batch: PreparedBatch, asked_by: AskedBy.optional(), result: ExecReportSchema.optional() }),
  /** Publish a fresh snapshot now (before preparing against it); answered with its time. */
  z.strictObject({ ...rowBase, action: z.literal('publish'), result: z.strictObject({ taken_at: z.string() }).optional() }),
]);
export type CommandRow = z.infer<typeof CommandRow>;

/** The encrypted body of a row: what CommandRow holds beyond the header. */
export const RowBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('run'), batch: PreparedBatch, asked_by: AskedBy }),
  z.strictObject({ action: z.literal('publish') }),
]);
export type RowBody = z.infer<typeof RowBody>;

/** The result of each action, checked when the sender has opened it. */
export const RowResultSchema = { run: ExecReportSchema, publish: z.strictObject({ taken_at: z.string() }) } as const;
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
