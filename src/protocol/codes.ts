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
  // a command from another device: its desk changed since the sender saw it; nobody there said yes
  'desk_changed',
  'not_confirmed',
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
  'page_changed',
  'timed_out',
  'declined',
  'unknown_tab',
  'unknown_tool',
  'unknown_secret',
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

/**
 * Who a notice is for: the model only (its own bookkeeping: a fresh snapshot follows, its answer
 * was unusable — never shown to a person) or the person (shown; when the agent loop raises it the
 * model is told as well, since it changes what the model can do).
 */
export const Audience = z.enum(['model', 'person']);
export type Audience = z.infer<typeof Audience>;

/** What an agent notice is about, beside its words. */
export const NOTICE_CODES = [
  /** Opening past the tab limit released the oldest target tab. */
  'tab_released',
  /** An action that should change the page did not, within the wait. */
  'no_change',
  /** The element numbers changed: a fresh snapshot follows. */
  'fresh_snapshot',
  /** The executor's answer held no usable command. */
  'answer_unusable',
  /** A target tab could not be read after an action. */
  'tab_unreadable',
  /** A secret named in the configuration has no value. */
  'secret_missing',
  /** No screenshot went to the planner though screenshots are on (the page shows a secret, or it could not be taken). */
  'screenshot_skipped',
] as const;

export const NoticeCode = z.enum(NOTICE_CODES);
export type NoticeCode = z.infer<typeof NoticeCode>;
