// Exit codes are part of the exec API (docs/protocol.md).
export const EXIT = {
  ok: 0,
  /** A command failed while executing, or a backend (Chrome, windows) is unavailable. */
  failed: 1,
  /** The input was invalid; nothing was executed. */
  invalid: 2,
  /** Nothing was executed because the user is needed: a clarification, or a declined confirmation. */
  needsUser: 3,
} as const;
