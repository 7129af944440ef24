import { fromLlmEnvelope } from '../../protocol/llm-schema';
import { systemPrompt, userMessage } from '../../engine/planning/system-prompt';
import type { Planner, PlannerAnswer, PlanRequest, QuestionAnswerer } from '../../engine/ports';
import { extractJson } from './extract-json';
import type { LlmOptions } from './llm-options';

// The LLM planner: the prompt and context go out, one envelope comes back. It never
// validates the envelope — the engine does, and asks again (repair) with the exact errors.
// The OpenAI SDK is loaded on the first request, not when the engine is wired: it is the
// largest part of a start-up, and most commands are answered without an LLM.

export function createLlmPlanner(opts: LlmOptions): Planner {
  let ready: Promise<Planner['plan']> | null = null;
  return {
    kind: 'llm',
    describe: () => `${opts.model} at ${opts.baseURL}`,
    plan: async (req) => (await (ready ??= sdkPlanner(opts)))(req),
  };
}

async function sdkPlanner(opts: LlmOptions): Promise<Planner['plan']> {
  const [{ chat }, { LlmError, excerpt }, { createClient, withDefaults }, { llmResponseFormat }] = await Promise.all([
    import('./chat-call'),
    import('./llm-errors'),
    import('./llm-options'),
    import('./response-format'),
  ]);
  const o = withDefaults(opts);
  const client = createClient(o);
  return async (req: PlanRequest): Promise<PlannerAnswer> => {
    const { text, finishReason, usage } = await chat(
      client,
      o,
      {
        messages: [
          { role: 'system', content: systemPrompt() },
          { role: 'user', content: userMessage(req) },
        ],
        // json_object: for servers without json_schema support; the prompt describes the shape.
        response_format: o.mode === 'strict' ? llmResponseFormat() : { type: 'json_object' },
      },
      req.signal,
    );
    const found = extractJson(text);
    if (!found.ok) {
      const cut = finishReason === 'length' ? ' (the answer was cut off at the length limit)' : '';
      throw new LlmError(`${o.model} did not answer with a readable plan${cut}: ${excerpt(text)} — try again, or use a model that supports JSON output`, 'llm_bad_output', text);
    }
    return { envelope: fromLlmEnvelope(found.value), confidence: 1, raw: text, ...(usage ? { usage } : {}) };
  };
}

/** Wiring imports both from here; the answerer lives in its own file and, like the planner, loads the SDK when first asked. */
export function createLlmAnswerer(opts: LlmOptions): QuestionAnswerer {
  let ready: Promise<QuestionAnswerer> | null = null;
  return {
    answer: async (question) => (await (ready ??= import('./llm-answerer').then((m) => m.createLlmAnswerer(opts)))).answer(question),
  };
}
