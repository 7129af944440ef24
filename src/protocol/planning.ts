// What planners and their callers share: the modes, and the recent turns that let
// "now put it on the right" refer to what was just done.

export type PlannerMode = 'auto' | 'local' | 'llm';

export interface Turn {
  /** ms since epoch */
  at: number;
  /** What the user said. */
  text: string;
  /** The envelope that was planned (protocol shape). */
  envelope: unknown;
  /** What happened, in words (results, or the clarification question, or a query's answer). */
  outcome: string;
}
