import type { CommandType } from './commands';
import type { Clarification, FieldError } from './validation';

// What the exec API answers (CLI stdout, IPC, later HTTP): one report per batch.

export interface PlannedCommand {
  index: number;
  type: CommandType;
  /** What will happen, in words, e.g. 'close tab 3 "Reddit" (reddit.com)'. */
  summary: string;
  destructive: boolean;
  /** What it acts on, one entry per thing (each tab a close_tab closes, the app a close_app quits). */
  targets: string[];
}

export interface CommandOutcome {
  index: number;
  type: CommandType;
  ok: boolean;
  message: string;
  code?: string;
  data?: unknown;
}

/**
 * done: every command succeeded · failed: at least one failed while executing ·
 * invalid: input or resolution errors, nothing ran · unavailable: a backend is missing,
 * nothing ran · clarification: the planner asked a question, nothing ran ·
 * dry_run: validated and resolved only · cancelled: the user declined the confirmation.
 */
export type ExecStatus = 'done' | 'failed' | 'invalid' | 'unavailable' | 'clarification' | 'dry_run' | 'cancelled';

export interface ExecReport {
  status: ExecStatus;
  batch_id: string | null;
  snapshot_taken_at: string | null;
  errors: FieldError[];
  clarification: Clarification | null;
  plan: PlannedCommand[];
  results: CommandOutcome[];
  /** Problems that did not change the outcome, e.g. history could not be written. */
  warnings: string[];
}
