import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import type { AgentModels } from '../../engine/agent-ports';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { PlannerRequest } from '../../engine/agent-ports';
import { SCREENSHOT_NOTE, executorMessage, executorPrompt, plannerMessage, plannerPrompt } from '../../engine/agent/prompts';
import { PageCommand } from '../../protocol/agent';
import { chat } from './chat-call';
import { extractJson } from './extract-json';
import { LlmError, excerpt } from './llm-errors';
import { createClient, withDefaults, type LlmOptions } from './llm-options';

// Agent mode's two models over any OpenAI-compatible endpoint: the planner (plain-English
// steps and a message) and the executor (one page command per turn). They may be different
// models on different servers. This is transport only: what they are told is
// src/engine/agent/prompts.ts, and neither validates — the agent loop checks every answer and
// asks again with the exact error.

// ---- structured output schemas ----

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** Strict mode requires every field, so an optional field becomes nullable (as src/protocol/llm-schema.ts does). */
function strictVariant(variant: AnyObject): AnyObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(variant.shape)) {
    if (field instanceof z.ZodOptional) {
      const inner = (field.unwrap() as z.ZodType).nullable();
      shape[key] = field.description ? inner.describe(field.description) : inner;
    } else shape[key] = field as z.ZodType;
  }
  const strict = z.strictObject(shape);
  return (variant.description ? strict.describe(variant.description) : strict) as AnyObject;
}

const commandVariants = PageCommand.options.map((v) => strictVariant(v as unknown as AnyObject));

/** The executor's structured answer: one command (strict mode needs an object at the root). */
export const LlmAgentCommand = z.strictObject({
  command: z.union(commandVariants as unknown as [AnyObject, AnyObject, ...AnyObject[]]).describe('Exactly one page command.'),
});

/**
 * The planner's structured answer. Strict mode wants every field, so needs_steps is required
 * here (optional in AgentPlan, where a plan without it needs steps); the loop checks the rest.
 */
export const LlmAgentPlan = z.strictObject({
  needs_steps: z.boolean().describe('false: the page shown already answers the question; steps is then empty and message is the answer'),
  steps: z.array(z.string()).max(30).describe('Plain-English steps, one command each.'),
  message: z.string().describe('One line on what you will do, or the answer when needs_steps is false.'),
});

export const agentPlanFormat = () => zodResponseFormat(LlmAgentPlan, 'deskpilot_agent_plan');

/**
 * The planner's user message: text, and the page's screenshot as an image part (a data URL)
 * when there is one — the form OpenAI-compatible vision models take.
 */
export function plannerUserContent(req: PlannerRequest): string | ChatCompletionContentPart[] {
  const text = plannerMessage(req.goal, req.context, req.page?.text);
  const image = req.page?.image;
  if (!image) return text;
  const url = `data:${image.mimeType};base64,${Buffer.from(image.data).toString('base64')}`;
  return [
    { type: 'text', text: `${text}\n\n${SCREENSHOT_NOTE}` },
    { type: 'image_url', image_url: { url } },
  ];
}
export const agentCommandFormat = () => zodResponseFormat(LlmAgentCommand, 'deskpilot_page_command');

// ---- the models ----

export function createLlmAgentModels(opts: { planner: LlmOptions; executor: LlmOptions }): AgentModels {
  const p = withDefaults(opts.planner);
  const e = withDefaults(opts.executor);
  const plannerClient = createClient(p);
  const executorClient = createClient(e);
  return {
    async plan(req) {
      const { text, finishReason, usage } = await chat(
        plannerClient,
        p,
        {
          messages: [
            { role: 'system', content: plannerPrompt() },
            { role: 'user', content: plannerUserContent(req) },
          ],
          // json_object: for servers without json_schema support; the prompt describes the shape.
          response_format: p.mode === 'strict' ? agentPlanFormat() : { type: 'json_object' },
        },
        req.signal,
      );
      const found = extractJson(text);
      if (!found.ok) {
        const cut = finishReason === 'length' ? ' (the answer was cut off at the length limit)' : '';
        throw new LlmError(`${p.model} did not answer with a readable plan${cut}: ${excerpt(text)}`, 'llm_bad_output', text);
      }
      return { plan: found.value, raw: text, ...(usage ? { usage } : {}) };
    },
    async next(req) {
      const { text, usage } = await chat(
        executorClient,
        e,
        {
          messages: [
            { role: 'system', content: executorPrompt() },
            { role: 'user', content: executorMessage(req) },
          ],
          response_format: e.mode === 'strict' ? agentCommandFormat() : { type: 'json_object' },
        },
        req.signal,
      );
      // The loop reads the command (structured, <tool_code>, or legacy fenced JSON) and repairs.
      return { raw: text, ...(usage ? { usage } : {}) };
    },
  };
}
