import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { cancelledLog } from './cancelled-call';
import { askThroughClient } from './consent';
import { registerTools, type AnyToolDef, type McpContext } from './define-tool';
import type { DeskChanges } from './desk-changes';
import { registerDesktopResource } from './desktop-resource';
import { APP_TOOLS } from './tools/app-tools';
import { desktopSnapshot, query, undo } from './tools/desktop-tools';
import { DEVICE_TOOLS } from './tools/device-tools';
import { DO_TOOLS } from './tools/do-tool';
import { PRESET_TOOLS } from './tools/preset-tools';
import { TAB_MANAGER_TOOLS } from './tools/tab-manager-tools';
import { TAB_TOOLS } from './tools/tab-tools';
import { WINDOW_TOOLS } from './tools/window-tools';

// DeskPilot as an MCP server: one McpServer per client session (stdio has one; Streamable
// HTTP one per session), all sharing one desk, one set of snapshots and one change feed.

export const TOOLS: readonly AnyToolDef[] = [...DEVICE_TOOLS, desktopSnapshot, ...TAB_TOOLS, ...TAB_MANAGER_TOOLS, ...APP_TOOLS, ...WINDOW_TOOLS, ...PRESET_TOOLS, undo, query, ...DO_TOOLS];

const INSTRUCTIONS =
  'DeskPilot arranges this computer\'s windows and Chrome tabs. Start with desktop_snapshot (or list_tabs / list_apps). ' +
  'Tab indices are only valid together with the snapshot_id they came with. Closing tabs or apps asks the user first. ' +
  'Everything done is recorded in DeskPilot\'s history.jsonl. ' +
  'With sync set up, list_devices names the user\'s other computers: pass one as `device` to act there (its snapshot_ids go with that device).';

export interface DeskMcpServer {
  server: McpServer;
  close(): Promise<void>;
}

/** `notice`: what the user must fix before the desk can be reached (told to the model with the instructions). */
export function createDeskMcpServer(ctx: McpContext, changes: DeskChanges, version: string, notice?: string): DeskMcpServer {
  // logging: what became of a cancelled call is told as a log message (the call itself gets no answer).
  const server = new McpServer({ name: 'deskpilot', title: 'DeskPilot', version }, { instructions: notice ? `${INSTRUCTIONS} Note: ${notice}` : INSTRUCTIONS, capabilities: { logging: {} } });
  registerTools(
    server,
    TOOLS,
    ctx,
    (message, extra) => askThroughClient(server.server, extra as RequestHandlerExtra<ServerRequest, ServerNotification>, message),
    (tool, outcome) => void server.server.sendLoggingMessage(cancelledLog(tool, outcome)).catch(() => undefined),
  );
  const endSubscription = registerDesktopResource(server, ctx, changes);
  server.server.onclose = endSubscription;
  return {
    server,
    close: async () => {
      endSubscription();
      await server.close();
    },
  };
}
