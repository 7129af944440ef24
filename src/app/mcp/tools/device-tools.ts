import { errorMessage } from '../../../engine/errors';
import type { DeviceView } from '../../../protocol/sync';
import { defineTool, type McpContext } from '../define-tool';
import { DevicesOutput } from '../read-shapes';
import { ToolError } from '../tool-error';

// The user's computers, as the sync server knows them: the names the other tools' `device`
// argument takes, whether each is online (its DeskPilot service running), and when it was
// last seen.

const ago = (ms: number) => (ms < 90_000 ? `${Math.max(0, Math.round(ms / 1000))} s ago` : ms < 90 * 60_000 ? `${Math.round(ms / 60_000)} min ago` : `${Math.round(ms / 3_600_000)} h ago`);

export async function deviceViews(ctx: McpContext): Promise<DeviceView[]> {
  if (!ctx.devices) throw new ToolError('No sync server is configured on this computer (sync.url in config.json), so DeskPilot knows only this computer.', 'unavailable');
  try {
    return (await ctx.devices.remote()).list().filter((v) => v.device.removed_at === undefined);
  } catch (e) {
    throw new ToolError(`The other devices cannot be reached: ${errorMessage(e)}`, 'unavailable');
  }
}

export const listDevices = defineTool({
  name: 'list_devices',
  local: true,
  title: 'List the user\'s devices',
  description:
    'The user\'s computers paired with DeskPilot\'s sync server: name, platform, online or when last seen, and how many tabs each published. ' +
    'Pass a name as `device` to the other tools to act on that computer (an offline one cannot act; its last published desk can still be read).',
  input: {},
  output: DevicesOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { ctx }) {
    const views = await deviceViews(ctx);
    const now = Date.now();
    const lines = views.map((v) => {
      const status = v.this_device ? 'this computer' : v.online ? 'online' : `offline, last seen ${ago(now - v.device.last_seen)}`;
      return `"${v.device.name}" — ${status} — ${v.device.platform} — ${v.snapshot ? `${v.snapshot.tabs.length} tabs` : 'nothing published'}`;
    });
    return {
      text: lines.join('\n'),
      data: {
        devices: views.map((v) => ({
          name: v.device.name,
          id: v.device.id,
          platform: v.device.platform,
          online: v.this_device || v.online,
          this_device: v.this_device,
          last_seen: new Date(v.device.last_seen).toISOString(),
          tabs: v.snapshot?.tabs.length ?? null,
        })),
      },
    };
  },
});

export const DEVICE_TOOLS = [listDevices];
