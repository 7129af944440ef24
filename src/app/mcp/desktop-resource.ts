import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from './define-tool';
import type { DeskChanges } from './desk-changes';
import { contextOnDevice } from './device-context';
import { ToolError } from './tool-error';
import { deviceViews } from './tools/device-tools';
import { desktopText } from './tools/desktop-tools';

// The desk as a resource a client can read and subscribe to: when tabs or windows change,
// subscribers get notifications/resources/updated and read it again.

export const DESKTOP_URI = 'deskpilot://desktop';
/** Another device's desk, as it last published it (asked to publish afresh when online). */
export const DEVICE_DESKTOP_URI = 'deskpilot://devices/{device}/desktop';

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
  server.registerResource(
    'device-desktop',
    new ResourceTemplate(DEVICE_DESKTOP_URI, {
      list: async () => {
        const views = ctx.devices ? await deviceViews(ctx).catch(() => []) : [];
        return {
          resources: views
            .filter((v) => !v.this_device)
            .map((v) => ({ uri: DEVICE_DESKTOP_URI.replace('{device}', encodeURIComponent(v.device.name)), name: `desktop of ${v.device.name}`, mimeType: 'text/plain' })),
        };
      },
    }),
    {
      title: 'Another device\'s desktop',
      description: 'The desk another of the user\'s computers published (list_devices names them), in the form desktop_snapshot returns; its snapshot_id goes with that device.',
      mimeType: 'text/plain',
    },
    async (uri, variables) => {
      const name = decodeURIComponent(String(variables.device ?? ''));
      let on: McpContext;
      try {
        on = await contextOnDevice(ctx, name);
      } catch (e) {
        throw new McpError(ErrorCode.InvalidParams, e instanceof ToolError ? e.message : String(e));
      }
      const { text } = await desktopText(on, false);
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: on.target ? `On "${on.target.name}":\n${text}` : text }] };
    },
  );
  server.server.registerCapabilities({ resources: { subscribe: true } });

  let unsubscribe: (() => void) | null = null;
  const known = (uri: string) => {
    if (uri !== DESKTOP_URI) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}; the one resource is ${DESKTOP_URI}`);
  };
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    known(req.params.uri);
    if (!unsubscribe) {
      const sub = changes.subscribe(() => void server.server.sendResourceUpdated({ uri: DESKTOP_URI }).catch(() => undefined));
      unsubscribe = sub.unsubscribe;
      // Answered once the desk is being watched: a change after this answer is told.
      await sub.ready;
    }
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
