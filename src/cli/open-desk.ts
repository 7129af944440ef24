import path from 'node:path';
import type { Desk } from '../app/desk';
import { defaultConfigDir } from '../platform/config/config-dir';
import type { ConfigFlags } from '../platform/config/load-config';
import { connectService } from '../platform/service/socket-client';
import { serviceSocketPath } from '../platform/service/socket-path';
import type { Io } from './io';

// The CLI's desk: the warm service when one runs for this config directory (one socket
// round trip, nothing else loaded), else an engine composed in this process — slower to
// start, never different in behaviour. Heavy modules load only on the in-process path.

/** The config directory from flags and environment alone (no file read): enough to find the socket. */
export function configDirFrom(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): string {
  const dir = flags.configDir || env.DESKPILOT_CONFIG_DIR || undefined;
  return dir ? path.resolve(dir) : defaultConfigDir(env);
}

/** Flags that change how the engine is wired cannot be honoured by a service wired already. */
export const wantsOwnWiring = (flags: ConfigFlags) => Boolean(flags.chromeUrl || flags.allowRemoteChrome);

/** Whether to look for the service: not with --no-service or DESKPILOT_NO_SERVICE=1, nor with wiring flags. */
export function serviceAllowed(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): boolean {
  return !flags.noService && env.DESKPILOT_NO_SERVICE !== '1' && !wantsOwnWiring(flags);
}

export async function openDesk(flags: ConfigFlags, io: Io): Promise<Desk> {
  if (serviceAllowed(flags)) {
    const client = await connectService(serviceSocketPath(configDirFrom(flags)));
    if (client) {
      const { RemoteDesk } = await import('../app/remote-desk');
      try {
        return await RemoteDesk.open(client);
      } catch (e) {
        client.close();
        io.err(`note: the DeskPilot service did not answer (${e instanceof Error ? e.message : String(e)}); running in this process\n`);
      }
    }
  }
  const [{ compose }, { LocalDesk }] = await Promise.all([import('../compose/compose'), import('../app/local-desk')]);
  return new LocalDesk(await compose(flags));
}
