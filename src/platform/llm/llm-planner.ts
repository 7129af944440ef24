import { fromLlmEnvelope } from '../../protocol/llm-schema';
import { llmResponseFormat } from './response-format';
import { systemPrompt, userMessage } from '../../engine/planning/system-prompt';
import type { Planner, PlannerAnswer, PlanRequest } from '../../engine/ports';
import { chat } from './chat-call';
import { extractJson } from './extract-json';
import { LlmError, excerpt } from './llm-errors';
import { createClient, withDefaults, type LlmOptions } from './llm-options';

// The LLM planner: the prompt and context go out, one envelope comes back. It never
// validates the envelope — the engine does, and asks again (repair) with the exact errors.

export function createLlmPlanner(opts: LlmOptions): Planner {
  const o = withDefaults(opts);
  const client = createClient(o);
  return {
    kind: 'llm',
    describe: () => `${o.model} at ${o.baseURL}`,
    async plan(req: PlanRequest): Promise<PlannerAnswer> {
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
    },
  };
}

// Wiring imports both from here; the answerer lives in its own file.
export { createLlmAnswerer } from './llm-answerer';
