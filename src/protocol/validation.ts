import { z } from 'zod';
import { COMMAND_SCHEMAS, COMMAND_TYPES, Envelope, MAX_COMMANDS, MAX_QUESTION_LENGTH, type CommandType } from './commands';
import { echo } from './echo';

/** One problem with the input, addressed by a path such as `commands[0].tab_indices[1]`. */
export interface FieldError {
  path: string;
  message: string;
}

export const formatFieldError = (e: FieldError): string => (e.path ? `${e.path}: ${e.message}` : e.message);

/** `commands[0].tab_indices[1]`; a key is input too (an unknown field's name), so a long one is cut short. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${echo(String(key))}` : echo(String(key));
  }
  return out;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): { found: boolean } {
  let node: unknown = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return { found: false };
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return { found: node !== undefined };
}

function issueToErrors(issue: z.core.$ZodIssue, prefix: ReadonlyArray<PropertyKey>, input: unknown): FieldError[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: formatPath([...path, key]), message: 'unknown field' }));
  }
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator === 'type') {
    return [{ path: formatPath(path), message: `must be one of ${COMMAND_TYPES.join(', ')}` }];
  }
  if (issue.code === 'invalid_type' && !valueAt(input, issue.path).found) {
    return [{ path: formatPath(path), message: 'is required' }];
  }
  return [{ path: formatPath(path), message: issue.message }];
}

/** `input` is what was parsed: it tells a missing field ("is required") from a wrong one. */
export function zodErrors(error: z.ZodError, input: unknown, prefix: ReadonlyArray<PropertyKey> = []): FieldError[] {
  return error.issues.flatMap((issue) => issueToErrors(issue, prefix, input));
}

export type ParsedInput =
  | { ok: true; envelope: Envelope; clarification: null }
  | { ok: true; envelope: null; clarification: Clarification }
  | { ok: false; errors: FieldError[] };

/** A planner's question back to the user. Its commands are drafts and are never executed. */
export interface Clarification {
  reason: string;
  draft_types: CommandType[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Accepts what the exec API accepts — an envelope, one command, or an array of commands —
 * and returns a validated envelope, a clarification, or every field error at once.
 */
export function parseInput(input: unknown): ParsedInput {
  let candidate: unknown = input;
  if (Array.isArray(input)) {
    candidate = { commands: input, needs_clarification: false, clarification_reason: null };
  } else if (isRecord(input) && 'type' in input && !('commands' in input)) {
    candidate = { commands: [input], needs_clarification: false, clarification_reason: null };
  }
  if (!isRecord(candidate)) {
    return { ok: false, errors: [{ path: '', message: 'must be a JSON object (an envelope or a command) or an array of commands' }] };
  }

  // A clarifying envelope may carry incomplete drafts ({"type":"switch_tab"}) of what the planner
  // would do once answered.
  // They are checked for a known type only, and nothing in them ever runs.
  if (candidate.needs_clarification === true) return parseClarification(candidate);

  const parsed = Envelope.safeParse(candidate);
  if (!parsed.success) return { ok: false, errors: zodErrors(parsed.error, candidate) };
  return { ok: true, envelope: parsed.data, clarification: null };
}

function parseClarification(candidate: Record<string, unknown>): ParsedInput {
  const errors: FieldError[] = [];
  const reason = candidate.clarification_reason;
  if (typeof reason !== 'string' || reason.trim() === '') {
    errors.push({ path: 'clarification_reason', message: 'must explain what needs clarifying when needs_clarification is true' });
  } else if (reason.length > MAX_QUESTION_LENGTH) {
    errors.push({ path: 'clarification_reason', message: `must be at most ${MAX_QUESTION_LENGTH} characters` });
  }
  const commands = candidate.commands;
  const draftTypes: CommandType[] = [];
  if (!Array.isArray(commands)) {
    errors.push({ path: 'commands', message: 'must be an array of commands' });
  } else if (commands.length > MAX_COMMANDS) {
    errors.push({ path: 'commands', message: `must hold at most ${MAX_COMMANDS} commands` });
  } else {
    commands.forEach((c, i) => {
      const type = isRecord(c) ? c.type : undefined;
      if (typeof type === 'string' && type in COMMAND_SCHEMAS) draftTypes.push(type as CommandType);
      else errors.push({ path: `commands[${i}].type`, message: `must be one of ${COMMAND_TYPES.join(', ')}` });
    });
  }
  for (const key of Object.keys(candidate)) {
    if (!['commands', 'needs_clarification', 'clarification_reason', 'device'].includes(key)) {
      errors.push({ path: formatPath([key]), message: 'unknown field' });
    }
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, envelope: null, clarification: { reason: (reason as string).trim(), draft_types: draftTypes } };
}
