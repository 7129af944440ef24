import path from 'node:path';
import type { Desk } from '../app/desk';
import { watchDesk } from '../app/desk-watcher';
import type { McpContext } from '../app/mcp/define-tool';
import type { DeviceAccess } from '../app/mcp/device-context';
import { DeskChanges, type ChangeSource } from '../app/mcp/desk-changes';
import { HeldPlans } from '../app/mcp/held-plans';
import { mcpConfirmTokens } from './mcp-confirm-tokens';
import { SnapshotStore } from '../app/mcp/snapshot-store';
import { readConfigFile } from '../platform/config/load-config';
import { connectFoundService } from '../platform/service/find-service';
import type { ServiceClient } from '../platform/service/socket-client';
import { ServiceEvent } from '../protocol/service';
import type { ConfirmPolicy } from '../protocol/prepared-batch';

// What the MCP server runs on: the desk the CLI opened (the warm service, or an engine in
// this process), the confirmation settings the app uses, and where desk changes come from.

export function mcpContext(desk: Desk, configDir: string, devices: DeviceAccess | null = null): { ctx: McpContext; changes: DeskChanges } {
  // The service the desk is served by, wherever it listens (found as openDesk found it).
  const connect = async () => (await connectFoundService(configDir))?.client ?? null;
  const configFile = path.join(configDir, 'config.json');
  const ctx: McpContext = {
    desk,
    snapshots: new SnapshotStore(),
    held: new HeldPlans(),
    tokens: mcpConfirmTokens(desk, connect),
    devices,
    // Read on every destructive call, so turning a confirmation off in Settings takes effect at once.
    confirmPolicy: async (): Promise<ConfirmPolicy> => {
      const confirm = (await readConfigFile(configFile)).ui?.confirm;
      // A non-web address is always asked about; closing follows the settings (default: ask).
      return { close_tab: confirm?.close_tab ?? true, close_app: confirm?.close_app ?? true, open_url: true };
    },
  };
  // Decided when the first subscriber comes: the desk may have moved to this process meanwhile.
  const fromService = serviceChanges(connect);
  const source: ChangeSource = (emit) => (desk.via === 'service' ? fromService(emit) : watchDesk(desk, emit));
  return { ctx, changes: new DeskChanges(source) };
}

/** The warm service's desk.changed events, on a connection of their own. */
function serviceChanges(connect: () => Promise<ServiceClient | null>): ChangeSource {
  return (emit) => {
    let stopped = false;
    let close = () => {};
    // The service answers the subscription once it watches the desk.
    const ready = connect().then(async (client) => {
      if (!client) return;
      close = () => client.close();
      if (stopped) return close();
      client.onEvent((event) => {
        const parsed = ServiceEvent.safeParse(event);
        if (parsed.success) emit(parsed.data.data.what);
      });
      await client.request('subscribe', { topics: ['desk'] }).catch(() => undefined);
    });
    const stop = () => {
      stopped = true;
      close();
    };
    return Object.assign(stop, { ready: ready.catch(() => undefined) });
  };
}
