import { z } from 'zod';
import { ErrorCode } from './codes';
import { COMMAND_TYPES, type CommandType } from './commands';
import type { Clarification, FieldError } from './validation';

// What the exec API answers (CLI stdout, IPC, the service socket, MCP, a queue row): one
// report per batch. Schemas, because a report crosses process and device boundaries and is
// checked where it arrives.

const CommandTypeSchema = z.enum(COMMAND_TYPES as [CommandType, ...CommandType[]]);

export const PlannedCommand = z.strictObject({
  index: z.number().int().nonnegative(),
  type: CommandTypeSchema,
  /** What will happen, in words, e.g. 'close tab 3 "Reddit" (reddit.com)'. */
  summary: z.string(),
  destructive: z.boolean(),
  /** What it acts on, one entry per thing (each tab a close_tab closes, the app a close_app quits). */
  targets: z.array(z.string()),
});
export type PlannedCommand = z.infer<typeof PlannedCommand>;

export const CommandOutcome = z.strictObject({
  index: z.number().int().nonnegative(),
  type: CommandTypeSchema,
  ok: z.boolean(),
  message: z.string(),
  code: ErrorCode.optional(),
  data: z.unknown().optional(),
});
export type CommandOutcome = z.infer<typeof CommandOutcome>;

/**
 * done: every command succeeded · failed: at least one failed while executing ·
 * invalid: input or resolution errors, nothing ran · unavailable: a backend is missing,
 * nothing ran · clarification: the planner asked a question, nothing ran ·
 * dry_run: validated and resolved only · cancelled: the user declined the confirmation.
 */
export const ExecStatus = z.enum(['done', 'failed', 'invalid', 'unavailable', 'clarification', 'dry_run', 'cancelled']);
export type ExecStatus = z.infer<typeof ExecStatus>;

const FieldErrorSchema = z.strictObject({ path: z.string(), message: z.string() });

export const ExecReportSchema = z.strictObject({
  status: ExecStatus,
  batch_id: z.string().nullable(),
  snapshot_taken_at: z.string().nullable(),
  errors: z.array(FieldErrorSchema),
  clarification: z.strictObject({ reason: z.string(), draft_types: z.array(CommandTypeSchema) }).nullable(),
  plan: z.array(PlannedCommand),
  results: z.array(CommandOutcome),
  /** Problems that did not change the outcome, e.g. history could not be written. */
  warnings: z.array(z.string()),
});

export interface ExecReport {
  status: ExecStatus;
  batch_id: string | null;
  snapshot_taken_at: string | null;
  errors: FieldError[];
  clarification: Clarification | null;
  plan: PlannedCommand[];
  results: CommandOutcome[];
  warnings: string[];
}

/** A report with nothing in it yet but its status. */
export const emptyReport = (status: ExecStatus, extra: Partial<ExecReport> = {}): ExecReport => ({
  status,
  batch_id: null,
  snapshot_taken_at: null,
  errors: [],
  clarification: null,
  plan: [],
  results: [],
  warnings: [],
  ...extra,
});
