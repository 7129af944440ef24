import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DeskPilotError, errorMessage } from '../../engine/errors';
import { ServiceConnectionError } from '../../platform/service/socket-client';

// The one place a tool's outcome becomes an MCP result. Every failure — bad arguments the
// schema could not catch, a stale snapshot, Chrome down, a refusal — reaches the model as a
// result with isError and one message saying what went wrong and how to recover, never as
// a protocol error the model cannot read.

/** What a tool answers: a few lines for the model, and the same facts as data for programs. */
export interface ToolOutput {
  text: string;
  data: Record<string, unknown>;
  /** Nothing (or not everything) was done: the model must read the text and change course. */
  isError?: boolean;
}

/** A failure meant for the model: the message says how to recover; `code` is for programs. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export const toResult = (out: ToolOutput): CallToolResult => ({
  content: [{ type: 'text', text: out.text }],
  structuredContent: out.data,
  ...(out.isError ? { isError: true } : {}),
});

/** Any error as a result the model can act on. */
export function errorResult(e: unknown): CallToolResult {
  if (e instanceof ToolError) return toResult({ text: e.message, data: { error: { code: e.code, message: e.message, ...e.data } }, isError: true });
  const code = e instanceof DeskPilotError || e instanceof ServiceConnectionError ? e.code : 'failed';
  const message = errorMessage(e);
  return toResult({ text: `DeskPilot failed: ${message}`, data: { error: { code, message } }, isError: true });
}

/** Runs a tool body; whatever it throws comes back as an error result. */
export async function funnel(body: () => Promise<ToolOutput>): Promise<CallToolResult> {
  try {
    return toResult(await body());
  } catch (e) {
    return errorResult(e);
  }
}
