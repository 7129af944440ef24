import type { ContextSnapshot } from '../protocol/context';
import type { Envelope } from '../protocol/commands';
import { fromLlmEnvelope } from '../protocol/llm-envelope-nulls';
import type { PlannerMode, Turn } from '../protocol/planning';
import { formatFieldError, parseInput } from '../protocol/validation';
import { DeskPilotError, errorMessage } from './errors';
import type { Planner, PlannerAnswer, TokenUsage } from './ports';
import { deviceTarget } from './device-target';
import { resolveBatch, type ResolvedCommand } from './resolve';

// Words → a validated envelope. The offline matcher answers when it is sure; otherwise the
// LLM (when configured) gets one repair round with the exact errors; an answer that is still
// invalid is an error, and nothing runs.

export interface PlanOutcome {
  /** Valid against the protocol and resolvable against `snapshot` (or a clarification). */
  envelope: Envelope;
  /** The envelope's commands resolved against the snapshot; [] for a clarification. */
  resolved: ResolvedCommand[];
  planner: 'local' | 'llm';
  plannerDescription: string;
  confidence: number;
  /** ms: planning (both rounds), and whether a repair round was needed. */
  timings: { plan_ms: number; repaired: boolean };
  usage: TokenUsage | null;
  /** With a clarification: the valid choices, each ready to run. */
  candidates: Array<{ label: string; envelope: Envelope; resolved: ResolvedCommand[] }>;
  /** Set when auto mode wanted the LLM but fell back to the offline answer, saying why. */
  note?: string;
  /** The clarification only says a backend the request needs is down (see PlannerAnswer.backendDown). */
  backendDown?: boolean;
}

/** Keeps the candidates that are themselves valid, runnable envelopes. */
function validCandidates(raw: PlannerAnswer['candidates'], snap: ContextSnapshot, text: string): PlanOutcome['candidates'] {
  const out: PlanOutcome['candidates'] = [];
  for (const c of raw ?? []) {
    const checked = checkAnswer(c.envelope, snap, text);
    if (checked.envelope && !checked.envelope.needs_clarification) out.push({ label: c.label, envelope: checked.envelope, resolved: checked.resolved });
  }
  return out;
}

export interface Planners {
  local: Planner;
  llm: Planner | null;
  /** Why the LLM is unavailable, for messages. */
  llmMissingReason: string;
}

export class PlanError extends DeskPilotError {
  constructor(message: string) {
    super(message, 'plan_failed');
  }
}

interface CheckedAnswer {
  envelope: Envelope | null;
  /** The commands resolved against the snapshot (validated and resolved once, here). */
  resolved: ResolvedCommand[];
  errors: string[];
}

/** Problems with a planner's answer, in the exec API's `path: reason` form; [] when it is usable. */
/** `typedText`: the words the answer was planned from (see ResolveOptions). */
export function checkAnswer(raw: unknown, snap: ContextSnapshot, typedText: string | null = null): CheckedAnswer {
  const parsed = parseInput(fromLlmEnvelope(raw));
  if (!parsed.ok) return { envelope: null, resolved: [], errors: parsed.errors.map(formatFieldError) };
  if (parsed.clarification) {
    return {
      envelope: { commands: [], needs_clarification: true, clarification_reason: parsed.clarification.reason },
      resolved: [],
      errors: [],
    };
  }
  // Commands for another device are resolved against that device's desk (its own indices and ids).
  const target = deviceTarget(parsed.envelope, snap);
  if (!target.ok) return { envelope: null, resolved: [], errors: [target.error] };
  const resolution = resolveBatch(target.envelope.commands, target.snapshot, { typedText });
  if (!resolution.ok) {
    // "XTerm has 3 windows — which one?" is for the user to answer: a repair round would only guess a window.
    if (resolution.errors.every((e) => e.kind === 'clarify')) {
      return { envelope: { commands: [], needs_clarification: true, clarification_reason: resolution.errors.map((e) => e.message).join(' ') }, resolved: [], errors: [] };
    }
    return { envelope: null, resolved: [], errors: resolution.errors.map(formatFieldError) };
  }
  return { envelope: target.envelope, resolved: resolution.plan, errors: [] };
}

export async function planText(
  text: string,
  mode: PlannerMode,
  snap: ContextSnapshot,
  turns: readonly Turn[],
  planners: Planners,
  signal?: AbortSignal,
): Promise<PlanOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;

  let offline: PlanOutcome | null = null;
  if (mode !== 'llm') {
    const answer = await planners.local.plan({ text, context: snap, turns, signal });
    const checked = checkAnswer(answer.envelope, snap, text);
    // The matcher's own answers must always be valid; one that is not is a bug, reported as such.
    if (!checked.envelope) throw new PlanError(`the offline matcher produced an invalid plan: ${checked.errors.join('; ')}`);
    offline = {
      envelope: checked.envelope,
      resolved: checked.resolved,
      planner: 'local',
      plannerDescription: planners.local.describe(),
      confidence: answer.confidence,
      timings: { plan_ms: elapsed(), repaired: false },
      usage: null,
      candidates: checked.envelope.needs_clarification ? validCandidates(answer.candidates, snap, text) : [],
      ...(answer.backendDown && checked.envelope.needs_clarification ? { backendDown: true } : {}),
    };
    const sure = answer.confidence >= 1 && !checked.envelope.needs_clarification;
    if (mode === 'local' || sure || !planners.llm) return offline;
  }

  const llm = planners.llm;
  if (!llm) throw new PlanError(planners.llmMissingReason);
  if (offline) {
    // auto: an LLM that is down (Ollama not started, no network) must not cost the offline
    // answer — its question, with its choices, is still better than an error.
    try {
      return await planWithLlm(llm, text, snap, turns, signal, elapsed);
    } catch (e) {
      if (signal?.aborted || (e instanceof DeskPilotError && e.code === 'llm_cancelled')) throw e;
      return { ...offline, timings: { ...offline.timings, plan_ms: elapsed() }, note: `the LLM was not used: ${errorMessage(e)}` };
    }
  }
  return planWithLlm(llm, text, snap, turns, signal, elapsed);
}

async function planWithLlm(
  llm: Planner,
  text: string,
  snap: ContextSnapshot,
  turns: readonly Turn[],
  signal: AbortSignal | undefined,
  elapsed: () => number,
): Promise<PlanOutcome> {
  const usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  const add = (u?: TokenUsage) => {
    if (u) [usage.prompt_tokens, usage.completion_tokens] = [usage.prompt_tokens + u.prompt_tokens, usage.completion_tokens + u.completion_tokens];
  };

  let checked: CheckedAnswer;
  let previous: string;
  try {
    const first = await llm.plan({ text, context: snap, turns, signal });
    add(first.usage);
    checked = checkAnswer(first.envelope, snap, text);
    previous = first.raw ?? safeJson(first.envelope);
  } catch (e) {
    // Text that is not JSON at all deserves the same one repair round as JSON that is wrong.
    if (!(e instanceof DeskPilotError && e.code === 'llm_bad_output')) throw e;
    checked = { envelope: null, resolved: [], errors: [e.message] };
    previous = (e as DeskPilotError & { raw?: string }).raw ?? '';
  }
  let repaired = false;
  if (!checked.envelope) {
    repaired = true;
    let second;
    try {
      second = await llm.plan({ text, context: snap, turns, signal, repair: { previous, errors: checked.errors } });
    } catch (e) {
      throw new PlanError(`the model's answer was invalid (${checked.errors.join('; ')}) and the repair request failed: ${errorMessage(e)}`);
    }
    add(second.usage);
    checked = checkAnswer(second.envelope, snap, text);
    if (!checked.envelope) {
      throw new PlanError(`the model's answer was invalid twice, so nothing was run: ${checked.errors.join('; ')}`);
    }
  }
  return {
    envelope: checked.envelope,
    resolved: checked.resolved,
    planner: 'llm',
    plannerDescription: llm.describe(),
    confidence: 1,
    timings: { plan_ms: elapsed(), repaired },
    usage,
    candidates: [],
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
