import { z } from 'zod';
import { COMMAND_TYPES, Command, type CommandType } from './commands';

// What one executed command leaves behind, shaped after the command-queue design
// (shared/seeds/003): discriminated on the command type, status implied by which of
// `result` / `error` is present, so a later cross-device queue can store the same rows.

export const CommandResult = z.strictObject({
  ok: z.boolean(),
  message: z.string().describe('What happened, in words a person understands.'),
  data: z.unknown().optional(),
});
export type CommandResult = z.infer<typeof CommandResult>;

export const RecordError = z.strictObject({
  code: z.string(),
  message: z.string(),
});

export const ExecutionRecord = z.strictObject({
  _v: z.literal(1),
  id: z.string().min(1),
  batchId: z.string().min(1),
  deviceId: z.string().min(1),
  type: z.enum(COMMAND_TYPES as [CommandType, ...CommandType[]]),
  payload: Command,
  createdAt: z.number().int(),
  finishedAt: z.number().int().optional(),
  result: CommandResult.optional(),
  error: RecordError.optional(),
}).refine((r) => r.type === r.payload.type, { error: 'type must equal payload.type', path: ['type'] });
export type ExecutionRecord = z.infer<typeof ExecutionRecord>;

/** A record without result or error is still pending (or was abandoned mid-run). */
export const recordStatus = (r: ExecutionRecord): 'pending' | 'done' | 'failed' =>
  r.error ? 'failed' : r.result ? (r.result.ok ? 'done' : 'failed') : 'pending';
