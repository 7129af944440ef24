import { z } from 'zod';
import { Command, DeviceRef, MAX_QUESTION_LENGTH } from './commands';

// The strict-mode form of the protocol for LLM structured output, derived from the same
// zod source. Strict mode requires every field, so optional fields become nullable here;
// `fromLlmEnvelope` turns nulls back into absent fields before real validation.

type AnyObject = z.ZodObject<z.ZodRawShape>;

function strictVariant(variant: AnyObject): AnyObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(variant.shape)) {
    shape[key] = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType).nullable() : (field as z.ZodType);
  }
  const strict = z.strictObject(shape);
  return (variant.description ? strict.describe(variant.description) : strict) as AnyObject;
}

const variants = Command.options.map((v) => strictVariant(v as unknown as AnyObject));

export const LlmEnvelope = z.strictObject({
  commands: z.array(z.union(variants as unknown as [AnyObject, AnyObject, ...AnyObject[]])),
  needs_clarification: z.boolean(),
  clarification_reason: z
    .string()
    .max(MAX_QUESTION_LENGTH)
    .nullable()
    .describe('Set when needs_clarification is true: the question for the user, naming the candidates.'),
  device: DeviceRef.nullable(),
});
export type LlmEnvelope = z.infer<typeof LlmEnvelope>;

export { fromLlmEnvelope } from './llm-envelope-nulls';
