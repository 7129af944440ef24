import { ANSWER_PROMPT, answerMessage } from '../../engine/planning/answer-prompt';
import type { QuestionAnswerer } from '../../engine/ports';
import { chat } from './chat-call';
import { LlmError } from './llm-errors';
import { createClient, withDefaults, type LlmOptions } from './llm-options';

// Open questions about the desktop ("which tabs are about typescript?"), answered in plain
// text. What the model is told is src/engine/planning/answer-prompt.ts; this is transport.

export function createLlmAnswerer(opts: LlmOptions): QuestionAnswerer {
  const o = withDefaults(opts);
  const client = createClient(o);
  return {
    async answer({ question, context, turns, signal }) {
      const { text, usage } = await chat(
        client,
        o,
        {
          messages: [
            { role: 'system', content: ANSWER_PROMPT },
            { role: 'user', content: answerMessage(question, context, turns) },
          ],
        },
        signal,
      );
      const answer = text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '').trim();
      if (!answer) throw new LlmError(`${o.model} sent an empty answer — try again`, 'llm_bad_output', text);
      return { answer, ...(usage ? { usage } : {}) };
    },
  };
}
