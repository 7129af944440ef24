import type { DeviceAccess } from '../app/mcp/device-context';
import { loadConfig, type ConfigFlags } from '../platform/config/load-config';

// The MCP server's way to the user's other devices: one sync session for as long as the server
// lives, opened when a call first names a device (a server whose assistant never does so never
// connects), opened again after it failed (the server was down, the device not paired yet).

export async function mcpDevices(flags: ConfigFlags): Promise<DeviceAccess | null> {
  const config = await loadConfig(flags);
  if (!config.sync) return null;
  const { lazyRemote } = await import('./device-sync');
  const remote = lazyRemote(config);
  // Connecting now, in the background: the first `do` then plans with every device's desk.
  remote.now();
  return remote;
}
