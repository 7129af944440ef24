import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { TokenUsage } from '../../engine/ports';
import { LlmCancelledError, LlmError, excerpt, explainLlmError } from './llm-errors';
import type { ResolvedLlmOptions } from './llm-options';

// One chat completion, with every failure turned into an LlmError; shared by the planner
// and the answerer so both fail the same, clear way.

export interface ChatResult {
  text: string;
  finishReason: string | null;
  usage?: TokenUsage;
}

export async function chat(
  client: OpenAI,
  o: ResolvedLlmOptions,
  body: Omit<ChatCompletionCreateParamsNonStreaming, 'model' | 'temperature'>,
  signal?: AbortSignal,
): Promise<ChatResult> {
  if (signal?.aborted) throw new LlmCancelledError();
  let completion: ChatCompletion;
  try {
    completion = await client.chat.completions.create({ ...body, model: o.model, temperature: o.temperature }, { signal });
  } catch (e) {
    throw explainLlmError(e, o, signal);
  }
  const choice = completion.choices?.[0];
  if (!choice) throw new LlmError(`${o.model} sent a response with no answer in it — try again`, 'llm_bad_output');
  const { refusal, content } = choice.message;
  if (refusal) throw new LlmError(`${o.model} refused to answer: ${excerpt(refusal)} — rephrase the request`, 'llm_refused', refusal);
  const usage = completion.usage ? { prompt_tokens: completion.usage.prompt_tokens, completion_tokens: completion.usage.completion_tokens } : undefined;
  return { text: content ?? '', finishReason: choice.finish_reason ?? null, ...(usage ? { usage } : {}) };
}
