// Builds the planner under evaluation. Each planner module is loaded with a dynamic import
// only when its mode is asked for, so one that is missing or broken never stops the other.

import type { Planner } from '../src/engine/ports';
import { fromLlmEnvelope } from '../src/protocol/llm-schema';
import { parseInput } from '../src/protocol/validation';
import type { EvalPlanner } from './harness';

export type Mode = 'local' | 'llm' | 'auto';
export const MODES: readonly Mode[] = ['local', 'llm', 'auto'];

export interface LlmEnv {
  baseURL: string;
  model: string;
  apiKey?: string;
  /** DESKPILOT_LLM_MODE, as the app reads it: json_object for servers/models without strict JSON schemas. */
  mode?: 'strict' | 'json_object';
  /** DESKPILOT_LLM_TIMEOUT_MS */
  timeoutMs?: number;
}

/**
 * The endpoint from the same variables the app reads; null when DESKPILOT_LLM_BASE_URL or
 * DESKPILOT_LLM_MODEL is unset, a message when an optional one is malformed.
 */
export function llmEnv(env: NodeJS.ProcessEnv): LlmEnv | null | string {
  const baseURL = env.DESKPILOT_LLM_BASE_URL?.trim();
  const model = env.DESKPILOT_LLM_MODEL?.trim();
  if (!baseURL || !model) return null;
  const apiKey = env.DESKPILOT_LLM_API_KEY?.trim() || env.OPENAI_API_KEY?.trim() || undefined;
  const mode = env.DESKPILOT_LLM_MODE?.trim() || undefined;
  if (mode !== undefined && mode !== 'strict' && mode !== 'json_object') return `DESKPILOT_LLM_MODE must be "strict" or "json_object", not "${mode}".`;
  const timeout = env.DESKPILOT_LLM_TIMEOUT_MS?.trim() ? Number(env.DESKPILOT_LLM_TIMEOUT_MS) : undefined;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1000)) return `DESKPILOT_LLM_TIMEOUT_MS must be a whole number of milliseconds, at least 1000.`;
  return { baseURL, model, ...(apiKey ? { apiKey } : {}), ...(mode ? { mode } : {}), ...(timeout ? { timeoutMs: timeout } : {}) };
}

export const LLM_MISSING =
  'The LLM planner needs DESKPILOT_LLM_BASE_URL and DESKPILOT_LLM_MODEL (e.g. DESKPILOT_LLM_BASE_URL=http://localhost:11434/v1 DESKPILOT_LLM_MODEL=qwen2.5:7b), plus DESKPILOT_LLM_API_KEY or OPENAI_API_KEY for a hosted endpoint.';

/** Thrown when a planner module cannot be loaded; the message is one sentence for the console. */
export class PlannerUnavailable extends Error {}

export interface PlannerLoaders {
  local: () => Promise<Planner>;
  llm: (env: LlmEnv) => Promise<Planner>;
}

export const defaultLoaders: PlannerLoaders = {
  async local() {
    let mod: typeof import('../src/engine/local-planner');
    try {
      mod = await import('../src/engine/local-planner');
    } catch (e) {
      throw new PlannerUnavailable(`The offline matcher (src/engine/local-planner) could not be loaded: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    return mod.createLocalPlanner();
  },
  async llm(env) {
    let mod: typeof import('../src/platform/llm/llm-planner');
    try {
      mod = await import('../src/platform/llm/llm-planner');
    } catch (e) {
      throw new PlannerUnavailable(`The LLM planner (src/platform/llm/llm-planner) could not be loaded: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    return mod.createLlmPlanner(env);
  },
};

const tagged = (p: Planner, by: 'local' | 'llm'): EvalPlanner => ({
  describe: () => p.describe(),
  plan: async (req) => ({ ...(await p.plan(req)), by }),
});

/**
 * auto follows the engine's rule: the offline matcher's answer stands when it is sure
 * (confidence 1, a valid envelope, not a question); otherwise the LLM plans, if configured.
 * Unlike the engine, no repair round follows an invalid LLM answer: the first answer is scored.
 */
export function autoPlanner(local: Planner, llm: Planner | null): EvalPlanner {
  return {
    describe: () => (llm ? `auto: ${local.describe()}, then ${llm.describe()} when unsure` : `auto without an LLM: ${local.describe()} alone`),
    async plan(req) {
      const first = await local.plan(req);
      const parsed = parseInput(fromLlmEnvelope(first.envelope));
      const sure = first.confidence >= 1 && parsed.ok && parsed.clarification === null;
      if (sure || !llm) return { ...first, by: 'local' };
      return { ...(await llm.plan(req)), by: 'llm' };
    },
  };
}

/** null + message: the mode cannot run here (exit 2). */
export async function buildPlanner(
  mode: Mode,
  env: NodeJS.ProcessEnv,
  loaders: PlannerLoaders = defaultLoaders,
): Promise<{ planner: EvalPlanner; note: string | null } | { planner: null; message: string }> {
  const found = llmEnv(env);
  if (typeof found === 'string' && mode !== 'local') return { planner: null, message: found };
  const endpoint = typeof found === 'string' ? null : found;
  try {
    if (mode === 'local') return { planner: tagged(await loaders.local(), 'local'), note: null };
    if (mode === 'llm') {
      if (!endpoint) return { planner: null, message: LLM_MISSING };
      return { planner: tagged(await loaders.llm(endpoint), 'llm'), note: null };
    }
    const local = await loaders.local();
    const llm = endpoint ? await loaders.llm(endpoint) : null;
    return { planner: autoPlanner(local, llm), note: llm ? null : 'No LLM configured (DESKPILOT_LLM_BASE_URL, DESKPILOT_LLM_MODEL): auto runs the offline matcher alone.' };
  } catch (e) {
    if (e instanceof PlannerUnavailable) return { planner: null, message: e.message };
    throw e;
  }
}
