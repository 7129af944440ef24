import { z } from 'zod';
import { DeskPilotError, errorMessage } from '../../engine/errors';
import type { RemoteDevices } from '../sync/remote-devices';
import { DeviceDesk } from '../sync/device-desk';
import type { DeviceAccess, McpContext } from './call-context';
import { ToolError, type ToolOutput } from './tool-error';

// The `device` argument of the tools that act: the same tool, on another of the user's
// computers. Its context swaps the desk for that device's (prepared against its published
// desk, sent as one command row, answered with its report) and keeps its snapshot ids apart;
// everything else — confirmation here, the report's words — stays as it is on this computer.

export type { DeviceAccess };

export const deviceField = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(64, { error: 'must be at most 64 characters' })
  .optional()
  .describe('Another of the user\'s computers to do this on, by its name from list_devices (e.g. "work laptop"). Leave out for this computer. "all": list_tabs, search_tabs, count_tabs_by_domain and list_windows read every computer at once.');

/** The context for a call naming `device`: this one's when it names no other device. */
/** `signal`: the client cancelled the call; a row not yet taken by the device is withdrawn. */
export async function contextOnDevice(ctx: McpContext, device: string | undefined, signal?: AbortSignal): Promise<McpContext> {
  if (device === undefined) return ctx;
  if (!ctx.devices) throw new ToolError('device: no sync server is configured on this computer (sync.url in config.json), so other devices cannot be reached. Leave device out to act here.', 'invalid_argument');
  let remote: RemoteDevices;
  try {
    remote = await ctx.devices.remote();
  } catch (e) {
    const code = e instanceof DeskPilotError && e.code === 'invalid_input' ? 'invalid_argument' : 'unavailable';
    throw new ToolError(`device: other devices cannot be reached: ${errorMessage(e)}`, code);
  }
  const found = remote.find(device);
  if (!found.ok) throw new ToolError(`device: ${found.message}. Call list_devices to see them.`, 'invalid_argument');
  if (found.device.id === remote.thisDevice) return ctx;
  const owner = { id: found.device.id, name: found.device.name };
  return { ...ctx, desk: new DeviceDesk(ctx.desk, remote, found.device, signal, { answerIfTaken: true }), snapshots: ctx.snapshots.forDevice(owner), target: owner };
}

/** A tool's answer for another device says where it happened. */
export function onDevice(out: ToolOutput, ctx: McpContext): ToolOutput {
  if (!ctx.target) return out;
  return { ...out, text: `On "${ctx.target.name}":\n${out.text}`, data: { ...out.data, device: ctx.target } };
}
