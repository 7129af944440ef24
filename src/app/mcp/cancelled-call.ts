import type { CallToolResult, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';

// A call the client cancelled gets no answer (MCP: "receivers … SHOULD NOT send a response for
// the cancelled request"), yet what became of it matters: a command for another device was
// withdrawn before it ran there, or had been taken and may have run. That outcome goes to the
// client as a log message (notifications/message), which it may show the person.

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

export function cancelledLog(tool: string, outcome: CallToolResult): LoggingMessageNotification['params'] {
  const error = (outcome.structuredContent as { error?: { code?: string } } | undefined)?.error;
  // A result that is not an error finished before the cancellation was seen: it ran.
  const ran = !outcome.isError;
  return {
    level: ran || !error?.code?.endsWith('cancelled') ? 'warning' : 'info',
    logger: 'deskpilot',
    data: {
      cancelled_call: tool,
      ran,
      message: ran ? `${tool} was cancelled too late: it had already run. ${textOf(outcome)}` : `${tool} was cancelled: ${textOf(outcome)}`,
      ...(error?.code ? { code: error.code } : {}),
    },
  };
}
