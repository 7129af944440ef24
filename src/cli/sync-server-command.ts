import path from 'node:path';
import { loadConfig, type ConfigFlags } from '../platform/config/load-config';
import { EXIT } from './exit-codes';
import type { Io } from './io';
import { errorMessage } from '../engine/errors';

// `deskpilot sync-server`: the Hocuspocus server every device of a user syncs its queue and
// desks through. Foreground until SIGINT/SIGTERM; put it behind a TLS reverse proxy (README).

export interface SyncServerArgs {
  port: string;
  host: string;
  data?: string;
  redis?: string;
}

export async function runSyncServer(flags: ConfigFlags, args: SyncServerArgs, io: Io, stop: Promise<unknown> = signalled()): Promise<number> {
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`--port: must be a whole number from 0 to 65535, not "${args.port}"\n`);
    return EXIT.invalid;
  }
  if (args.redis !== undefined && !/^(redis|unix):\/\/\S+$/.test(args.redis)) {
    io.err(`--redis: must be redis://host:port or unix:///path/to/socket, not "${args.redis}"\n`);
    return EXIT.invalid;
  }
  const dataFile = args.data ?? (await loadConfig(flags)).state.syncDb;
  const { mkdir } = await import('node:fs/promises');
  if (dataFile !== ':memory:') await mkdir(path.dirname(path.resolve(dataFile)), { recursive: true, mode: 0o700 });
  const { startSyncServer } = await import('../platform/sync/sync-server');
  let server;
  try {
    server = await startSyncServer({ port, host: args.host, dataFile, redisUrl: args.redis, log: (line) => io.err(`${new Date().toISOString()} ${line}\n`) });
  } catch (e) {
    io.err(`deskpilot: the sync server could not start: ${errorMessage(e)}\n`);
    return EXIT.failed;
  }
  io.out(`DeskPilot sync server (pid ${process.pid}) listening on ${server.url} — data in ${dataFile}${args.redis ? `, sharing through ${args.redis}` : ''}\n`);
  await stop;
  await server.close();
  io.out('DeskPilot sync server stopped\n');
  return EXIT.ok;
}

function signalled(): Promise<string> {
  return new Promise((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve(sig));
  });
}
