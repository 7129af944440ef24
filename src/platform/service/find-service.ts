import { existsSync } from 'node:fs';
import os from 'node:os';
import { xdgDir } from '../config/config-dir';
import { connectService, type ServiceClient } from './socket-client';
import { serviceSocketPath } from './socket-path';

// Finding the user's running service from a thinner environment than it was started with.
// An MCP client (Claude Desktop, the Inspector, an editor) may start `deskpilot mcp` with
// little more than PATH and HOME: no XDG_RUNTIME_DIR, so the socket path computed here is not
// the one the service listens on. The service's own claim on its config folder names its
// socket (desk-owner.ts); failing that, the user's runtime directory is found from the uid
// (/run/user/<uid>, where systemd puts it). Each candidate is trusted only as connectService
// trusts any socket: this user's, in a folder only this user can write.

/** The sockets to try, most likely first, without duplicates. */
export async function serviceSocketCandidates(configDir: string, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const found = [serviceSocketPath(configDir, env)];
  // Loaded only here: a CLI call that finds the service where it looks first never needs it (nor zod).
  const owner = await (await import('../storage/desk-owner')).deskOwner(configDir);
  if (owner) found.push(owner.socket);
  if (process.platform === 'linux' && !xdgDir(env, 'XDG_RUNTIME_DIR', () => {})) {
    const runtime = `/run/user/${os.userInfo().uid}`;
    if (existsSync(runtime)) found.push(serviceSocketPath(configDir, { ...env, XDG_RUNTIME_DIR: runtime }));
  }
  return [...new Set(found)];
}

/** A connection to the config folder's running service wherever it listens, with its socket; null when none answers. */
export async function connectFoundService(configDir: string, env: NodeJS.ProcessEnv = process.env): Promise<{ client: ServiceClient; socketPath: string } | null> {
  // The usual place first: the others cost a file read, which a CLI call started in the desktop session never needs.
  const usual = serviceSocketPath(configDir, env);
  const first = await connectService(usual);
  if (first) return { client: first, socketPath: usual };
  for (const socketPath of (await serviceSocketCandidates(configDir, env)).filter((p) => p !== usual)) {
    const client = await connectService(socketPath);
    if (client) return { client, socketPath };
  }
  return null;
}
