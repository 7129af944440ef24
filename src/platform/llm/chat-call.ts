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
  // The timeout bounds the whole call, retries included: the SDK's own timeout is per attempt,
  // and it retries timeouts, which would stretch "30 s" to a minute and a half.
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const both = signal ? AbortSignal.any([signal, deadline]) : deadline;
  let completion: ChatCompletion;
  try {
    completion = await client.chat.completions.create({ ...body, model: o.model, temperature: o.temperature }, { signal: both });
  } catch (e) {
    if (deadline.aborted && !signal?.aborted) {
      throw new LlmError(`no answer from ${o.model} within ${Math.round(o.timeoutMs / 100) / 10} s — the server may be busy or still loading the model; try again or raise the timeout`, 'llm_timeout');
    }
    throw explainLlmError(e, o, signal);
  }
  const choice = completion.choices?.[0];
  if (!choice) throw new LlmError(`${o.model} sent a response with no answer in it — try again`, 'llm_bad_output');
  const { refusal, content } = choice.message;
  if (refusal) throw new LlmError(`${o.model} refused to answer: ${excerpt(refusal)} — rephrase the request`, 'llm_refused', refusal);
  const usage = completion.usage ? { prompt_tokens: completion.usage.prompt_tokens, completion_tokens: completion.usage.completion_tokens } : undefined;
  return { text: content ?? '', finishReason: choice.finish_reason ?? null, ...(usage ? { usage } : {}) };
}
