import { z } from 'zod';
import { COMMAND_TYPES, Command, type CommandType } from './commands';

// What one executed command leaves behind: discriminated on the command type, its status
// implied by which of `result` / `error` is present (neither: still pending, or abandoned
// mid-run), so a cross-device command queue can store the same rows.

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
