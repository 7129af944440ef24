import type { ConfigFlags } from '../platform/config/load-config';
import { connectService } from '../platform/service/socket-client';
import { serviceSocketPath } from '../platform/service/socket-path';
import { EXIT } from './exit-codes';
import { untilSignalled } from './until-signalled';
import type { Io } from './io';
import { configDirFrom } from './open-desk';
import type { CliMain } from './serve-cli';

// `deskpilot service`: the warm host in the foreground, until SIGINT/SIGTERM. `service status`
// asks a running one who it is, whether Chrome and windows answer, and what it served.

export async function runService(flags: ConfigFlags, io: Io, main: CliMain, stop?: Promise<unknown>): Promise<number> {
  // Handlers stay until the host has closed: see until-signalled.ts (a once-handler lets the
  // file lock's signal-exit kill the process mid-shutdown, and it exits by signal, not 0).
  const signals = stop ? null : untilSignalled();
  const [{ startServiceHost }, { ServiceRunningError }, { DeskOwnedError }] = await Promise.all([
    import('../compose/service-host'),
    import('../platform/service/socket-server'),
    import('../platform/storage/desk-owner'),
  ]);
  let host;
  try {
    host = await startServiceHost(flags);
  } catch (e) {
    signals?.dispose();
    if (e instanceof ServiceRunningError) {
      io.err(`deskpilot: ${e.message} — use it (the CLI does by itself), or stop it first\n`);
      return EXIT.failed;
    }
    if (e instanceof DeskOwnedError) {
      io.err(`deskpilot: ${e.message}\n`);
      return EXIT.failed;
    }
    throw e;
  }
  // Thin clients of this build have the service run their whole command (src/cli/thin-client.ts).
  (await import('./serve-cli')).serveCliFor(host.host, configDirFrom(flags), main);
  if (host.removedStale) io.err(`note: removed a stale socket left by a service that did not stop cleanly\n`);
  io.out(`DeskPilot service (pid ${process.pid}) listening on ${host.socketPath}\n`);
  try {
    await (stop ?? signals!.stopped);
    await host.close();
  } finally {
    signals?.dispose();
  }
  io.out('DeskPilot service stopped\n');
  return EXIT.ok;
}

export async function runServiceStatus(flags: ConfigFlags, io: Io): Promise<number> {
  const socketPath = serviceSocketPath(configDirFrom(flags));
  const client = await connectService(socketPath);
  if (!client) {
    // A host of this folder that listens elsewhere (started with another XDG_RUNTIME_DIR) is named, not denied.
    const owner = await (await import('../platform/storage/desk-owner')).deskOwner(configDirFrom(flags));
    if (owner && owner.socket !== socketPath) {
      io.out(`no DeskPilot service answers on ${socketPath}, but one runs for ${configDirFrom(flags)}: pid ${owner.pid}, on ${owner.socket} (started with another XDG_RUNTIME_DIR?)\n`);
      return EXIT.failed;
    }
    if (owner) {
      // Its own socket, not used: the folder is not private (others could have put it there), or it does not answer.
      io.out(`no DeskPilot service is running that this CLI may use: pid ${owner.pid} holds ${configDirFrom(flags)} on ${socketPath}, but that socket was not used (its folder must be yours and private, 0700) or did not answer\n`);
      return EXIT.failed;
    }
    io.out(`no DeskPilot service is running for ${configDirFrom(flags)} (socket ${socketPath}); start one with \`deskpilot service\`\n`);
    return EXIT.failed;
  }
  try {
    const { RemoteDesk } = await import('../app/remote-desk');
    const desk = await RemoteDesk.open(client);
    const health = await desk.health();
    const h = desk.hello;
    io.out(
      `DeskPilot service ${h.version} (pid ${h.pid}) since ${h.started_at}, on ${socketPath}\n` +
        `  chrome: ${health.chrome.ok ? '' : 'unavailable — '}${health.chrome.message}\n` +
        `  windows: ${health.windows.ok ? '' : 'unavailable — '}${health.windows.message}\n` +
        `  planner: ${health.planner.kind === 'llm' ? health.planner.description : 'offline matcher'}\n` +
        `  served: ${Object.entries(health.served ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([m, n]) => `${m} ${n}`).join(', ')}\n`,
    );
    return EXIT.ok;
  } finally {
    client.close();
  }
}

