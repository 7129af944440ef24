import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../engine/errors';
import { ToolError } from './tool-error';

// Asking the person at the client, not the model: MCP elicitation shows them the question
// and returns their answer. Sent as part of the tool call it belongs to (over Streamable
// HTTP it travels on that call's own response stream).

export type Consent = 'yes' | 'no' | 'unsupported';

/** A person may take a while to read what will close. */
const ASK_TIMEOUT_MS = 5 * 60 * 1000;

export async function askThroughClient(server: Server, extra: RequestHandlerExtra<ServerRequest, ServerNotification>, message: string): Promise<Consent> {
  if (!server.getClientCapabilities()?.elicitation?.form) return 'unsupported';
  try {
    const answer = await extra.sendRequest(
      // No fields to fill in: accepting is the yes, declining or dismissing the no.
      { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } } },
      ElicitResultSchema,
      { timeout: ASK_TIMEOUT_MS, signal: extra.signal },
    );
    return answer.action === 'accept' ? 'yes' : 'no';
  } catch (e) {
    throw new ToolError(`Nothing was done: asking the user failed (${errorMessage(e)}). Ask them again later.`, 'confirmation_failed');
  }
}
