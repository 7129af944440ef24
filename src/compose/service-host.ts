import type { Desk } from '../app/desk';
import { LocalDesk } from '../app/local-desk';
import { RemoteDesk } from '../app/remote-desk';
import { ServiceHost } from '../app/service-host';
import { logConsents } from '../app/sync/remote-consent';
import { errorMessage } from '../engine/errors';
import { compose } from './compose';
import type { ConfigFlags } from '../platform/config/load-config';
import { connectService } from '../platform/service/socket-client';
import { listenService, ServiceRunningError } from '../platform/service/socket-server';
import { serviceSocketPath } from '../platform/service/socket-path';
import { PACKAGE_VERSION } from '../platform/package-version';
import { claimDesk, DeskOwnedError } from '../platform/storage/desk-owner';
import type { WiredEngine } from './wire-engine';

// Wiring of the warm service: one engine, and the host that serves it on this user's socket.
// `deskpilot service` starts it; the app's main process hosts its own engine the same way,
// or becomes a client when a service already runs (one host per desk).

export interface RunningServiceHost {
  socketPath: string;
  removedStale: boolean;
  host: ServiceHost;
  /** Closing it stops serving, then disposes the engine. */
  desk: LocalDesk;
  close(): Promise<void>;
}

/**
 * Serves an engine on the socket for `configDir`; throws (and leaves `wired` as it is) when it
 * cannot listen there, or (DeskOwnedError) when another live process already hosts this device
 * — on another socket too: one host per device identity runs each command once.
 */
export async function serveEngine(wired: WiredEngine, configDir: string): Promise<RunningServiceHost> {
  const socketPath = serviceSocketPath(configDir);
  const claim = await claimDesk(configDir, socketPath).catch((e: unknown) => {
    // The owner on this very socket: the service that already runs here, as before.
    throw e instanceof DeskOwnedError && e.owner.socket === socketPath ? new ServiceRunningError(socketPath) : e;
  });
  let stopServing = async () => {};
  const desk = new LocalDesk({
    ...wired,
    dispose: async () => {
      await stopServing();
      await wired.dispose();
    },
  });
  const host = new ServiceHost({
    desk,
    hello: { version: PACKAGE_VERSION, pid: process.pid, device_id: wired.engine.deviceId, started_at: new Date().toISOString(), config_dir: configDir },
    tabChanges: (fn) => wired.onTabsChanged(fn),
  });
  let listening;
  try {
    listening = await listenService(socketPath, (message, conn) => void host.handle(message, conn));
  } catch (e) {
    await claim.release();
    throw e;
  }
  // The serving engine keeps the tab list current from Chrome's events (a snapshot reads memory)
  // and its own record of when each tab is used (tab ages without the companion extension).
  const stopWatchingTabs = wired.watchTabUse();
  stopServing = async () => {
    stopWatchingTabs();
    host.close();
    await listening.close();
    await claim.release();
  };
  return { socketPath: listening.path, removedStale: listening.removedStale, host, desk, close: () => desk.close() };
}

/**
 * The desk of a long-lived process that does not serve it (the app when the socket is taken,
 * the web test harness): its engine watches the tabs as a served one does, so a snapshot reads
 * the tab list from memory. Unwatched, every snapshot asks Chrome for each tab's window (one
 * call a tab): with 300 tabs, the launcher's once-a-second look at the desk kept Chrome's
 * browser process a quarter of a core busy while the list was in use.
 */
export function watchedDesk(wired: WiredEngine): LocalDesk {
  const stopWatchingTabs = wired.watchTabUse();
  return new LocalDesk({
    ...wired,
    dispose: async () => {
      stopWatchingTabs();
      await wired.dispose();
    },
  });
}

export async function startServiceHost(flags: ConfigFlags, log: (line: string) => void = (l) => void process.stderr.write(l + '\n')): Promise<RunningServiceHost> {
  const app = await compose(flags);
  let running;
  try {
    running = await serveEngine(app, app.config.configDir.value);
  } catch (e) {
    await app.dispose();
    throw e;
  }
  // Warm: connect to Chrome and the X server now, not on the first command.
  await running.desk.snapshot({ summaries: false }).catch(() => undefined);
  // With sync.url set, the device worker runs the rows addressed to this desk through this engine.
  const { startDeviceSync } = await import('./device-sync');
  // Other devices' requests to close things here wait in the service for `deskpilot devices approve|deny`; each is logged.
  logConsents(running.host.consents, log);
  const sync = await startDeviceSync(app.config, running.desk, log, undefined, running.host.consents);
  if (!sync) return running;
  const served = running;
  return { ...served, close: async () => (await sync.stop(), served.close()) };
}

/** The desk of a service answering on the socket, or null when none (or something else) answers. */
export async function joinService(socketPath: string): Promise<RemoteDesk | null> {
  const client = await connectService(socketPath);
  if (!client) return null;
  try {
    return await RemoteDesk.open(client);
  } catch {
    client.close();
    return null;
  }
}

export interface HostedOrJoined {
  desk: Desk;
  /** host: this process serves its engine on the socket · client: a service runs, this process uses it · alone: an engine here that could not be served. */
  role: 'host' | 'client' | 'alone';
  socketPath: string;
  /** Why an engine here is not served (role alone). */
  note?: string;
  /** The host serving the socket (role host): its consents are how this desk's user answers other devices. */
  host?: ServiceHost;
}

/**
 * One host per desk: joins the service when one answers; otherwise wires an engine here
 * and serves it, so the CLI uses this process's warm engine. `wire` is only called when
 * this process hosts.
 */
export async function hostOrJoin(configDir: string, wire: () => Promise<WiredEngine>): Promise<HostedOrJoined> {
  const socketPath = serviceSocketPath(configDir);
  const joined = await joinService(socketPath);
  if (joined) return { desk: joined, role: 'client', socketPath };
  const wired = await wire();
  try {
    const served = await serveEngine(wired, configDir);
    return { desk: served.desk, role: 'host', socketPath, host: served.host };
  } catch (e) {
    // Another host started in between, or hosts this device on another socket: use it rather than run a second engine.
    const late = e instanceof ServiceRunningError ? await joinService(socketPath) : e instanceof DeskOwnedError ? await joinService(e.owner.socket) : null;
    if (late) {
      await wired.dispose();
      return { desk: late, role: 'client', socketPath };
    }
    return { desk: watchedDesk(wired), role: 'alone', socketPath, note: `not serving the DeskPilot socket: ${errorMessage(e)}` };
  }
}
