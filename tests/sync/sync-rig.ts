import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { keyringOf } from '../../src/compose/device-sync';
import { connectSync, type SyncConnection } from '../../src/platform/sync/sync-connection';
import { CLI, runCli } from '../support/cli';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { spawnService, type ServiceProcess } from '../service/service-process';

// Real processes for the cross-device tests: `deskpilot sync-server` (one or two, with a real
// redis-server between them), one DeskPilot per test desktop (its own config dir, its own
// warm service with the device worker), devices paired as a person would (`devices pair`, then
// `devices invite` on one and `devices pair --join` with its code on the other), and an observer
// reading the shared document to see rows appear and go: it connects with a device's own
// credential and keys (so it reads what that device reads).

/** A child process in its own group: the sync server, redis-server, a CLI to signal mid-way. */
export type Proc = ServiceProcess;

export function spawnProc(cmd: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  return spawnService(env, [cmd, ...args]);
}

export interface SyncServerProc extends Proc {
  url: string;
  port: number;
}

export async function startSyncServerProc(o: { data: string; port?: number; redis?: string }): Promise<SyncServerProc> {
  const args = [CLI, 'sync-server', '--port', String(o.port ?? 0), '--data', o.data, ...(o.redis ? ['--redis', o.redis] : [])];
  const p = spawnProc(process.execPath, args, { ...process.env });
  const url = (await p.listening).split(' ')[0]!;
  return Object.assign(p, { url, port: Number(new URL(url).port) });
}

/** A real redis-server on a unix socket of its own, with nothing saved. */
export async function startRedis(dir: string): Promise<Proc & { url: string }> {
  const sock = path.join(dir, 'redis.sock');
  const p = spawnProc('redis-server', ['--port', '0', '--unixsocket', sock, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no'], { ...process.env });
  await waitFor('redis-server to answer PING', async () => {
    if (p.child.exitCode !== null) throw new Error(`redis-server exited:\n${p.output()}`);
    return ping(sock);
  });
  return Object.assign(p, { url: `unix://${sock}` });
}

function ping(sock: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.createConnection(sock);
    c.once('error', () => resolve(false));
    c.once('data', (d) => {
      resolve(d.toString().startsWith('+PONG'));
      c.destroy();
    });
    c.once('connect', () => c.write('PING\r\n'));
  });
}

export const redisAvailable = (): boolean => {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    try {
      if (dir && statSync(path.join(dir, 'redis-server')).isFile()) return true;
    } catch {
      // not here
    }
  }
  return false;
};

/** One DeskPilot: a config dir on a test desktop, its CLI env, and its warm service. */
export class Device {
  readonly configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-sync-'));
  service: ServiceProcess | null = null;

  constructor(
    readonly name: string,
    readonly desk: Desktop,
    private syncUrl: string,
  ) {
    this.writeConfig();
  }

  setSyncUrl(url: string): void {
    this.syncUrl = url;
    this.writeConfig();
  }

  private writeConfig(): void {
    writeFileSync(path.join(this.configDir, 'config.json'), JSON.stringify({ sync: { url: this.syncUrl, device_name: this.name } }));
  }

  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...this.desk.env, DESKPILOT_CHROME_URL: this.desk.chrome!.browserWsUrl, DESKPILOT_CONFIG_DIR: this.configDir, ...extra };
    // The service's socket goes into this config dir, so two devices on one machine never meet there.
    delete env.XDG_RUNTIME_DIR;
    return env;
  }

  cli(args: string[], o: { stdin?: string; env?: NodeJS.ProcessEnv } = {}) {
    return runCli(args, { env: this.env(o.env), stdin: o.stdin });
  }

  /** Spawns the CLI without waiting, to signal it mid-way. */
  spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): Proc {
    return spawnProc(process.execPath, [CLI, ...args], this.env(env));
  }

  async startService(env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
    await this.stopService();
    const svc = spawnService(this.env(env));
    this.service = svc;
    await svc.listening;
    return svc;
  }

  async stopService(): Promise<void> {
    await this.service?.stop();
    this.service = null;
  }

  dispose(): void {
    rmSync(this.configDir, { recursive: true, force: true });
  }
}

/** The connection credential a device's sync-credential.json holds (what a thief of that file has). */
export function credentialOf(d: Device): { userId: string; deviceId: string; deviceKey: string } {
  const c = JSON.parse(readFileSync(path.join(d.configDir, 'sync-credential.json'), 'utf8')) as { user_id: string; device_id: string; device_key: string };
  return { userId: c.user_id, deviceId: c.device_id, deviceKey: c.device_key };
}

/** A second connection as `d` (its credential, its keys and trust list) that only watches the document. */
export async function observe(url: string, d: Device): Promise<SyncConnection> {
  const token = credentialOf(d);
  const { ring } = await keyringOf(d.configDir, token.deviceId);
  const conn = connectSync({ url, token, keyring: ring });
  await conn.ready;
  return conn;
}

/**
 * Pairs `joiner` with `inviter` through the CLI, as a person would: `devices invite` on the
 * inviter shows a code and its key's fingerprint; `devices pair --join` on the joiner reads the
 * code from standard input and shows the inviter's fingerprint. Returns both outputs.
 */
export async function pairThroughCli(inviter: Device, joiner: Device, env: NodeJS.ProcessEnv = {}): Promise<{ invite: string; join: string; code: string }> {
  const invite = inviter.spawnCli(['devices', 'invite'], env);
  const code = await waitFor('the pairing code', () => {
    if (invite.child.exitCode !== null) throw new Error(`devices invite exited:\n${invite.output()}`);
    return /dpp1\.[A-Za-z0-9_.-]+/.exec(invite.output())?.[0] ?? false;
  });
  const joined = await joiner.cli(['devices', 'pair', '--join'], { stdin: code + '\n', env });
  if (joined.code !== 0) {
    invite.kill('SIGINT');
    throw new Error(`devices pair --join failed: ${joined.stderr}`);
  }
  const how = await invite.exited;
  if (how !== 0) throw new Error(`devices invite ended with ${how}:\n${invite.output()}`);
  return { invite: invite.output(), join: joined.stdout, code };
}

/** An HTTP page that never answers: a command opening it is still running while the test looks. */
export async function startHangingPage(): Promise<{ url: string; hits(): number; stop(): Promise<void> }> {
  let hits = 0;
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    hits++;
    held.add(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hang`,
    hits: () => hits,
    stop: async () => {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Two test desktops, a sync server, device A paired first, B joined with A's code, and an observer (as A). */
export interface TwoDevices {
  deskA: Desktop;
  deskB: Desktop;
  rawA: RawCdp;
  rawB: RawCdp;
  server: SyncServerProc;
  dataDir: string;
  a: Device;
  b: Device;
  obs: SyncConnection;
}

export async function startTwoDevices(nameA: string, nameB: string): Promise<TwoDevices> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-syncsrv-'));
  const [deskA, deskB, server] = await Promise.all([startDesktop({ chrome: true }), startDesktop({ chrome: true }), startSyncServerProc({ data: path.join(dataDir, 'sync.sqlite') })]);
  const [rawA, rawB] = await Promise.all([RawCdp.connect(deskA.chrome!.browserWsUrl), RawCdp.connect(deskB.chrome!.browserWsUrl)]);
  const a = new Device(nameA, deskA, server.url);
  const b = new Device(nameB, deskB, server.url);
  const paired = await a.cli(['devices', 'pair']);
  if (paired.code !== 0) throw new Error(`devices pair failed: ${paired.stderr}`);
  await pairThroughCli(a, b);
  const obs = await observe(server.url, a);
  return { deskA, deskB, rawA, rawB, server, dataDir, a, b, obs };
}

/** Stops what startTwoDevices started (whatever of it the test still holds). */
export async function stopTwoDevices(r: Partial<TwoDevices>): Promise<void> {
  r.obs?.close();
  await Promise.all([r.a?.stopService(), r.b?.stopService()]);
  await r.server?.stop();
  await Promise.all([r.rawA?.dispose(), r.rawB?.dispose()]);
  await Promise.all([r.deskA?.stop(), r.deskB?.stop()]);
  r.a?.dispose();
  r.b?.dispose();
  if (r.dataDir) rmSync(r.dataDir, { recursive: true, force: true });
}

/** Waits until the named device is online and has published a desk (its worker is up). */
export async function onlineWithDesk(obs: SyncConnection, name: string): Promise<void> {
  await waitFor(`${name} to be online and publish its desk`, () => {
    const id = obs.doc.devices().find((r) => r.name === name)?.id;
    return id !== undefined && obs.onlineDevices().has(id) && obs.doc.readSnapshot(id).snapshot !== null;
  });
}
