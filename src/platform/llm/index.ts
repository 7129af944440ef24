export { createLlmPlanner } from './llm-planner';
export { createLlmAnswerer } from './llm-answerer';
export type { LlmOptions } from './llm-options';
export { LlmError, LlmCancelledError, type LlmErrorCode } from './llm-errors';
export { extractJson, type Extracted } from './extract-json';
