import { zodResponseFormat } from 'openai/helpers/zod';
import { LlmEnvelope } from '../../protocol/llm-schema';

// The protocol's strict schema as an OpenAI response_format. Here, not in src/protocol:
// the helper belongs to the SDK, which only the LLM transport loads.
/** The `response_format` for chat.completions (strict JSON schema named deskpilot_commands). */
export const llmResponseFormat = () => zodResponseFormat(LlmEnvelope, 'deskpilot_commands');
