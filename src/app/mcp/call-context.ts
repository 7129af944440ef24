import type { ConfirmPolicy } from '../../protocol/prepared-batch';
import type { ConfirmTokens } from '../confirm-tokens';
import type { Desk } from '../desk';
import type { RemoteDevices } from '../sync/remote-devices';
import type { HeldPlans } from './held-plans';
import type { SnapshotStore } from './snapshot-store';

// What a tool call runs with. Its own file so the tool registry (define-tool.ts) and the
// device argument (device-context.ts) can both use it without importing each other.

/** What every tool works with: the desk (the warm service or an engine in this process) and the snapshots handed out. */
export interface McpContext {
  desk: Desk;
  snapshots: SnapshotStore;
  /** Which kinds ask the user before they run (config.json ui.confirm, read on each call). */
  confirmPolicy(): Promise<ConfirmPolicy>;
  /** Batches shown to the user, waiting for their confirm_token (the warm service's, or this process's). */
  tokens: ConfirmTokens;
  /** The numbered options `do` offered, waiting for the user's choice. */
  held: HeldPlans;
  /** The user's other devices, when sync is configured (null: it is not). */
  devices: DeviceAccess | null;
  /** Set when the call acts on another device (its `device` argument): that device. */
  target?: { id: string; name: string };
}

/** The sync session of the MCP server, opened on first use (and again after a failure). */
export interface DeviceAccess {
  /** Throws a DeskPilotError saying why other devices cannot be reached (not configured, not paired, server down). */
  remote(): Promise<RemoteDevices>;
  /** The session if open now (else it starts opening): for planning, which must not wait on a server that is down. */
  now(): RemoteDevices | null;
  close(): Promise<void>;
}
