import type { DeviceAccess } from '../app/mcp/device-context';
import type { RemoteDevices } from '../app/sync/remote-devices';
import { loadConfig, type ConfigFlags } from '../platform/config/load-config';
import type { OpenSync } from './device-sync';

// The MCP server's way to the user's other devices: one sync session for as long as the server
// lives, opened when a call first names a device (a server whose assistant never does so never
// connects), opened again after it failed (the server was down, the device not paired yet).

export async function mcpDevices(flags: ConfigFlags): Promise<DeviceAccess | null> {
  const config = await loadConfig(flags);
  if (!config.sync) return null;
  let opening: Promise<OpenSync> | null = null;
  return {
    remote: async (): Promise<RemoteDevices> => {
      if (!opening) {
        const { openSync } = await import('./device-sync');
        opening = openSync(config);
        opening.catch(() => (opening = null));
      }
      return (await opening).remote;
    },
    close: async () => {
      const open = opening;
      opening = null;
      await open?.then((s) => s.close(), () => undefined);
    },
  };
}
