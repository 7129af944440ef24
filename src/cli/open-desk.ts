import type { Desk } from '../app/desk';
import type { ConfigFlags } from '../platform/config/load-config';
import type { Io } from './io';
import { configDirFrom, serviceAllowed } from './service-route';
import { errorMessage } from '../engine/errors';

export { configDirFrom, serviceAllowed, wantsOwnWiring } from './service-route';

// The CLI's desk: the warm service when one runs for this config directory (one socket
// round trip, nothing else loaded), else an engine composed in this process — slower to
// start, never different in behaviour. Heavy modules load only on the in-process path.
// Inside the service itself (running the CLI for a thin client) it is the service's own desk.

export async function openDesk(flags: ConfigFlags, io: Io): Promise<Desk> {
  // Inside the service (running the CLI for a thin client): its own desk. Handed in with the
  // call's io, not kept in an AsyncLocalStorage: that turns on Node's promise hooks for the
  // whole service, a cost on every promise it makes from then on.
  if (io.desk) return io.desk;
  if (serviceAllowed(flags)) {
    // Loaded here, not with the module: the service protocol's schemas are not needed without one.
    // Found also from a thinner environment than the service's (an MCP client's: no XDG_RUNTIME_DIR).
    const { connectFoundService } = await import('../platform/service/find-service');
    const client = (await connectFoundService(configDirFrom(flags)))?.client;
    if (client) {
      const { RemoteDesk } = await import('../app/remote-desk');
      try {
        return await RemoteDesk.open(client);
      } catch (e) {
        client.close();
        io.err(`note: the DeskPilot service did not answer (${errorMessage(e)}); running in this process\n`);
      }
    }
  }
  const [{ compose }, { LocalDesk }] = await Promise.all([import('../compose/compose'), import('../app/local-desk')]);
  return new LocalDesk(await compose(flags));
}
