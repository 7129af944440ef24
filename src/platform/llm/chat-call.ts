import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { TokenUsage } from '../../engine/ports';
import { LlmCancelledError, LlmError, droppedError, excerpt, explainLlmError, isDroppedConnection, notJsonError, seconds } from './llm-errors';
import { recordExchange, type ResponseMeta } from './llm-exchange';
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
  const exchange = recordExchange(client);
  let answer: unknown;
  try {
    answer = await exchange.client.chat.completions.create({ ...body, model: o.model, temperature: o.temperature }, { signal: both });
  } catch (e) {
    if (deadline.aborted && !signal?.aborted) {
      // Retried drops that ran into the deadline are drops, not a slow server.
      const drops = exchange.failures.filter(isDroppedConnection).length;
      if (drops > 0) throw droppedError(o, `${drops === 1 ? 'once' : `${drops} times`} and then did not answer within ${seconds(o.timeoutMs)}`);
      throw new LlmError(`no answer from ${o.model} within ${seconds(o.timeoutMs)} — the server may be busy or still loading the model; try again or raise the timeout`, 'llm_timeout');
    }
    // The SDK parses a JSON content type itself; what it could not parse is shown as it came.
    if (e instanceof SyntaxError && exchange.body !== null) throw notJsonError(o, { ...exchange.meta, text: exchange.body });
    throw explainLlmError(e, o, signal);
  }
  const completion = asCompletion(answer, o, exchange.meta);
  const choice = completion?.choices?.[0];
  if (!choice) throw new LlmError(`${o.model} sent a response with no answer in it — try again`, 'llm_bad_output');
  const { refusal, content } = choice.message;
  if (refusal) throw new LlmError(`${o.model} refused to answer: ${excerpt(refusal)} — rephrase the request`, 'llm_refused', refusal);
  const usage = completion?.usage ? { prompt_tokens: completion.usage.prompt_tokens, completion_tokens: completion.usage.completion_tokens } : undefined;
  return { text: content ?? '', finishReason: choice.finish_reason ?? null, ...(usage ? { usage } : {}) };
}

/**
 * The SDK hands back the body as text when the content type is not JSON (some servers send JSON
 * as text/plain), and nothing for an empty body: either is read here, or said to be no JSON.
 */
function asCompletion(answer: unknown, o: ResolvedLlmOptions, meta: ResponseMeta): Partial<ChatCompletion> {
  if (answer === undefined || answer === null) throw notJsonError(o, { ...meta, text: '' });
  if (typeof answer !== 'string') return answer as Partial<ChatCompletion>;
  try {
    return JSON.parse(answer) as Partial<ChatCompletion>;
  } catch {
    throw notJsonError(o, { ...meta, text: answer });
  }
}
