// The LLM request timeout: DESKPILOT_LLM_TIMEOUT_MS and llm.timeout_ms in config.json share one
// range, so a typo (-5, 1e12, "abc", 0) is refused with the same words wherever it is written,
// instead of crashing a request later or silently becoming the default.

export const LLM_TIMEOUT_MIN_MS = 1_000;
export const LLM_TIMEOUT_MAX_MS = 600_000;
export const DEFAULT_LLM_TIMEOUT_MS = 30_000;

export const LLM_TIMEOUT_RULE = `must be a whole number of milliseconds from ${LLM_TIMEOUT_MIN_MS} to ${LLM_TIMEOUT_MAX_MS}`;

/** The environment variable's text as milliseconds; null when it is not a whole number in the range. */
export function parseTimeoutMs(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const ms = Number(trimmed);
  return ms >= LLM_TIMEOUT_MIN_MS && ms <= LLM_TIMEOUT_MAX_MS ? ms : null;
}
