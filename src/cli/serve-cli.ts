import path from 'node:path';
import type { ServiceHost } from '../app/service-host';
import { DeskPilotError } from '../engine/errors';
import { BUILD_ID } from './build-id';
import { forwardable } from './service-route';
import type { Io } from './io';

// The service's side of the thin client (src/cli/thin-client.ts): it runs the CLI's own
// main() for the client, with the client's terminal (output and questions travel over the
// socket) and the service's warm desk — so a call answered this way prints exactly what the
// CLI prints in its own process.

/** The CLI's main(), handed in by it (importing it here would make a circle). */
export type CliMain = (argv: string[], io: Io) => Promise<number>;

/** Lets `host` run this build's CLI for thin clients. Running from the sources there is no build to match: it does not. */
export function serveCliFor(host: ServiceHost, configDir: string, main: CliMain): void {
  if (!BUILD_ID) return;
  host.serveCli(BUILD_ID, async (argv, io, desk) => {
    // The client decided this already; a call that needs the client's own process (standard
    // input, its own wiring) or names another config directory is refused before anything runs.
    const route = forwardable(argv, {});
    if (!route) throw new DeskPilotError(`the DeskPilot service does not run \`deskpilot ${argv.join(' ')}\`: run it in the CLI's own process`, 'refused');
    if (route.configDir && path.resolve(io.cwd, route.configDir) !== path.resolve(configDir)) {
      throw new DeskPilotError(`this DeskPilot service serves ${configDir}, not ${path.resolve(io.cwd, route.configDir)}`, 'refused');
    }
    return main(argv, { ...io, desk });
  });
}
