import { AgentPlan } from '../../protocol/agent';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import type { AgentModels, PlannerPage } from '../agent-ports';
import { errorMessage } from '../errors';
import type { TokenUsage } from '../ports';
import { planRepair } from './prompts';
import type { Secrets } from './safety';
import { Stopped, abortable } from './stop';

// The planner's turn: one request, and one repair round with the exact errors when its answer
// is no valid plan (text that is no JSON at all included). Nothing runs before a plan is valid.

export interface PlanRequest {
  goal: string;
  context: string;
  /** The page the run starts on (already framed and redacted; redacted again here with the rest). */
  page?: PlannerPage;
  models: AgentModels;
  secrets: Secrets;
  signal?: AbortSignal;
  addUsage(u?: TokenUsage): void;
}

/** A plan, or why there is none (a clause: "the planner's answer was invalid twice, …"). */
export type PlanOutcome = { plan: AgentPlan; repaired: boolean } | { failed: string };

export async function makePlan(r: PlanRequest): Promise<PlanOutcome> {
  const { goal, context, signal, models, secrets } = r;
  // Everything the planner reads passes the redaction; the screenshot's bytes are no text and
  // pass unchanged (run-agent.ts decides whether one may be sent at all).
  const page = r.page ? { page: r.page } : {};
  let checked: { plan: AgentPlan | null; errors: string[] };
  let previous: string;
  try {
    const first = await abortable(signal, models.plan(secrets.redactAll({ goal, context, ...page, signal })));
    r.addUsage(first.usage);
    checked = checkPlan(first.plan);
    previous = first.raw;
  } catch (e) {
    if (!isBadOutput(e)) throw e;
    checked = { plan: null, errors: [errorMessage(e)] };
    previous = rawOf(e);
  }
  if (checked.plan) return { plan: checked.plan, repaired: false };

  let second;
  try {
    second = await abortable(signal, models.plan(secrets.redactAll({ goal, context: context + planRepair(checked.errors, previous), ...page, signal })));
  } catch (e) {
    if (e instanceof Stopped || signal?.aborted) throw e;
    return { failed: `the planner's answer was invalid (${checked.errors.join('; ')}) and the repair request failed: ${errorMessage(e)}` };
  }
  r.addUsage(second.usage);
  const again = checkPlan(second.plan);
  if (!again.plan) return { failed: `the planner's answer was invalid twice, so nothing was done: ${again.errors.join('; ')}` };
  return { plan: again.plan, repaired: true };
}

export function checkPlan(value: unknown): { plan: AgentPlan | null; errors: string[] } {
  const parsed = AgentPlan.safeParse(value);
  if (parsed.success) return { plan: parsed.data, errors: [] };
  return { plan: null, errors: zodErrors(parsed.error, value).map(formatFieldError) };
}

/** The model layer could not read the answer: an invalid answer to repair, not a broken run. */
export const isBadOutput = (e: unknown) => (e as { code?: unknown } | null)?.code === 'llm_bad_output';

/** The unreadable answer's text, which a bad-output error carries. */
export const rawOf = (e: unknown) => (e as { raw?: string }).raw ?? '';
