import { z } from 'zod';

// What kind of failure or notice something is, as a code beside its words: front ends decide
// by the code (retry, ask, show a fix, stay quiet on a cancel) and never by parsing a message.

export const ERROR_CODES = [
  // the request itself
  'invalid_input',
  'invalid_argument',
  'bad_request',
  'refused',
  'stale',
  'cancelled',
  'expired',
  'wrong_device',
  // planning
  'plan_failed',
  'clarification',
  'confirmation_failed',
  // what a command acts on
  'chrome_unavailable',
  'windows_unavailable',
  'x11_error',
  'unavailable',
  'tab_gone',
  'tabs_partly_closed',
  'tabs_not_closed',
  'window_gone',
  'app_unknown',
  'app_launch_failed',
  'launch_timeout',
  'monitor_missing',
  'preset_gone',
  'nothing_to_save',
  // agent actions on a page
  'element_not_found',
  'element_unusable',
  'navigation_refused',
  'url_refused',
  'action_failed',
  // the warm service
  'service_gone',
  'service_bad_answer',
  // the LLM
  'llm_unreachable',
  'llm_auth',
  'llm_model_not_found',
  'llm_not_found',
  'llm_timeout',
  'llm_connection_dropped',
  'llm_not_json',
  'llm_rate_limited',
  'llm_server_error',
  'llm_bad_request',
  'llm_refused',
  'llm_bad_output',
  'llm_cancelled',
  // voice transcription
  'voice_config',
  'voice_unreachable',
  'voice_auth',
  'voice_model_not_found',
  'voice_not_found',
  'voice_too_large',
  'voice_bad_audio',
  'voice_rate_limited',
  'voice_server_error',
  'voice_bad_request',
  'voice_bad_response',
  'voice_empty',
  'voice_timeout',
  'voice_cancelled',
  // anything else
  'failed',
] as const;

export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Who a notice is for: the model (it adjusts its next step) or the person (shown, never sent to a model). */
export const Audience = z.enum(['model', 'person']);
export type Audience = z.infer<typeof Audience>;
