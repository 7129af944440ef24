// The parts of the service protocol the thin CLI client needs, without zod: that client runs
// on every CLI call and must load next to nothing. src/protocol/service.ts holds the schemas
// the service checks requests with; the client checks these few shapes by hand.

/** One line may not exceed this (a 300-tab snapshot with summaries is well under 1 MB). */
export const MAX_SERVICE_LINE = 16 * 1024 * 1024;

/** While the service runs the CLI for a client: its stdout, its stderr, and a question to answer on the client's terminal. */
export const CLI_STREAMS = ['out', 'err', 'ask'] as const;
export type CliStream = (typeof CLI_STREAMS)[number];

/** A message of a running `cli` call, tagged with the call's request id; the call's response (the exit code) comes last. */
export interface CliMessage {
  id: number;
  cli: CliStream;
  text: string;
}

/** What `cli` answers once the command has finished. */
export interface CliResult {
  exit_code: number;
}
