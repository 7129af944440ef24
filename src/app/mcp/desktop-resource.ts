import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from './define-tool';
import type { DeskChanges } from './desk-changes';
import { desktopText } from './tools/desktop-tools';

// The desk as a resource a client can read and subscribe to: when tabs or windows change,
// subscribers get notifications/resources/updated and read it again.

export const DESKTOP_URI = 'deskpilot://desktop';

/** Registers the resource; the returned function ends this session's subscription. */
export function registerDesktopResource(server: McpServer, ctx: McpContext, changes: DeskChanges): () => void {
  server.registerResource(
    'desktop',
    DESKTOP_URI,
    {
      title: 'The desktop',
      description: 'Monitors, apps and windows, Chrome tabs and presets, in the compact form desktop_snapshot returns (with its snapshot_id). Subscribe to hear when tabs or windows change.',
      mimeType: 'text/plain',
    },
    async (uri) => {
      const { text } = await desktopText(ctx, false);
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
    },
  );
  server.server.registerCapabilities({ resources: { subscribe: true } });

  let unsubscribe: (() => void) | null = null;
  const known = (uri: string) => {
    if (uri !== DESKTOP_URI) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}; the one resource is ${DESKTOP_URI}`);
  };
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    known(req.params.uri);
    unsubscribe ??= changes.subscribe(() => void server.server.sendResourceUpdated({ uri: DESKTOP_URI }).catch(() => undefined));
    return {};
  });
  const stop = () => {
    unsubscribe?.();
    unsubscribe = null;
  };
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    known(req.params.uri);
    stop();
    return {};
  });
  return stop;
}
