import { LocalDesk } from '../app/local-desk';
import { ServiceHost } from '../app/service-host';
import { compose } from '../cli/compose';
import type { ConfigFlags } from '../platform/config/load-config';
import { listenService } from '../platform/service/socket-server';
import { serviceSocketPath } from '../platform/service/socket-path';
import { PACKAGE_VERSION } from '../platform/package-version';

// Wiring of the warm service: the configuration, one engine, the host that serves it on
// this user's socket. The app's main process and `deskpilot service` both start it.

export interface RunningServiceHost {
  socketPath: string;
  removedStale: boolean;
  host: ServiceHost;
  desk: LocalDesk;
  close(): Promise<void>;
}

export async function startServiceHost(flags: ConfigFlags): Promise<RunningServiceHost> {
  const app = await compose(flags);
  const desk = new LocalDesk(app);
  const host = new ServiceHost({
    desk,
    hello: {
      version: PACKAGE_VERSION,
      pid: process.pid,
      device_id: app.engine.deviceId,
      started_at: new Date().toISOString(),
      config_dir: app.config.configDir.value,
    },
  });
  let listening;
  try {
    listening = await listenService(serviceSocketPath(app.config.configDir.value), (message, conn) => void host.handle(message, conn));
  } catch (e) {
    await desk.close();
    throw e;
  }
  // Warm: connect to Chrome and the X server now, not on the first command.
  await desk.snapshot({ summaries: false }).catch(() => undefined);
  return {
    socketPath: listening.path,
    removedStale: listening.removedStale,
    host,
    desk,
    close: async () => {
      await listening.close();
      await desk.close();
    },
  };
}
