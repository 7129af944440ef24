// A real, disposable sway session for tests and benches: headless sway 1.7 with two 1920x1080
// outputs side by side (HEADLESS-1 at 0,0 and HEADLESS-2 at 1920,0), a bar on top of each, and
// foot terminals as real Wayland clients. sway refuses to run as root, so under root (this
// machine, CI) it runs as an unprivileged user made for it (`dpwl`), and so do its clients;
// root still speaks to its IPC socket. No vitest here: the bench uses it too.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, poll, stopProc, type Proc } from './desktop';

export const SWAY_USER = 'dpwl';
const START_TIMEOUT_MS = 60_000;
const APT_INSTALL = 'apt-get install -y --no-install-recommends sway foot';

/** Whether a program is on this process's PATH. */
function onPath(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** null when a headless sway session can run here; otherwise what is missing and how to install it. */
export function swayUnavailableReason(): string | null {
  if (process.platform !== 'linux') return `headless sway needs Linux (this is ${process.platform})`;
  const missing = ['sway', 'swaymsg', 'foot', ...(isRoot() ? ['runuser', 'useradd'] : [])].filter((c) => !onPath(c));
  return missing.length ? `headless sway is unavailable: missing ${missing.join(', ')}. Install with: ${APT_INSTALL}` : null;
}

const isRoot = () => process.getuid?.() === 0;

export interface SwaySession {
  /** The IPC socket (what SWAYSOCK names). */
  socket: string;
  /** XDG_RUNTIME_DIR of the session (owned by the sway user, 0700). */
  runtimeDir: string;
  /** For the DeskPilot side: process.env + SWAYSOCK, without any X or Wayland display of the caller's. */
  env: NodeJS.ProcessEnv;
  /** Starts a foot window (as the sway user) and resolves with its con_id once sway lists it. */
  foot(opts: { appId?: string; title: string }): Promise<number>;
  /** `swaymsg -t <type> -r`, parsed: the compositor's own view, through its own tool. */
  msg<T = unknown>(type: 'get_tree' | 'get_outputs' | 'get_workspaces', ...args: string[]): T;
  /** `swaymsg <command>`; throws when sway refuses. */
  command(command: string): void;
  stop(): Promise<void>;
}

/** Creates the unprivileged user once (root only); returns the uid and gid to own the runtime dir. */
function swayUser(): { uid: number; gid: number } | null {
  if (!isRoot()) return null;
  try {
    execFileSync('id', ['-u', SWAY_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['-m', SWAY_USER], { stdio: 'ignore' });
  }
  const id = (flag: string) => Number(execFileSync('id', [flag, SWAY_USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startSway(): Promise<SwaySession> {
  const reason = swayUnavailableReason();
  if (reason) throw new Error(`startSway: ${reason}`);
  const user = swayUser();
  const runtimeDir = mkdtempSync(path.join(tmpdir(), 'deskpilot-sway-'));
  const config = path.join(runtimeDir, 'sway.conf');
  writeFileSync(
    config,
    [
      'output HEADLESS-1 resolution 1920x1080 position 0 0',
      'output HEADLESS-2 resolution 1920x1080 position 1920 0',
      'xwayland disable',
      'bar {',
      '  position top',
      '}',
      '',
    ].join('\n'),
  );
  if (user) {
    chownSync(runtimeDir, user.uid, user.gid);
    chownSync(config, user.uid, user.gid);
  }
  chmodSync(runtimeDir, 0o700);
  const base = [`XDG_RUNTIME_DIR=${runtimeDir}`, `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`, `HOME=${user ? `/home/${SWAY_USER}` : (process.env.HOME ?? runtimeDir)}`];
  // As the sway user under root (runuser keeps the process group, so stopping it stops sway); directly otherwise.
  const asUser = (name: string, vars: string[], argv: string[]) =>
    user ? launch(name, 'runuser', ['-u', SWAY_USER, '--', 'env', '-i', ...base, ...vars, ...argv], process.env) : launch(name, 'env', ['-i', ...base, ...vars, ...argv], process.env);

  const procs: Proc[] = [];
  const stop = async () => {
    await Promise.all(procs.slice(1).map(stopProc));
    if (procs[0]) await stopProc(procs[0]);
    await rm(runtimeDir, { recursive: true, force: true });
  };
  try {
    const sway = await asUser('sway', ['WLR_BACKENDS=headless', 'WLR_HEADLESS_OUTPUTS=2', 'WLR_LIBINPUT_NO_DEVICES=1', 'WLR_RENDERER=pixman'], ['sway', '-c', config]);
    procs.push(sway);
    const socket = await poll('sway to open its IPC socket and wayland-1', START_TIMEOUT_MS, [sway], async () => {
      const files = readdirSync(runtimeDir);
      const sock = files.find((f) => /^sway-ipc\..*\.sock$/.test(f));
      return sock && files.includes('wayland-1') ? path.join(runtimeDir, sock) : undefined;
    });
    const env: NodeJS.ProcessEnv = { ...process.env, SWAYSOCK: socket };
    for (const v of ['DISPLAY', 'WAYLAND_DISPLAY', 'I3SOCK', 'XDG_CURRENT_DESKTOP', 'XDG_SESSION_TYPE']) delete env[v];
    const msg = <T>(type: string, ...args: string[]): T => JSON.parse(execFileSync('swaymsg', ['-s', socket, '-r', '-t', type, ...args], { encoding: 'utf8' })) as T;
    const command = (c: string) => {
      execFileSync('swaymsg', ['-s', socket, c], { encoding: 'utf8' });
    };
    // Both outputs up before anything is placed.
    await poll('sway to report both outputs', START_TIMEOUT_MS, [sway], async () => (msg<unknown[]>('get_outputs').length === 2 ? true : undefined));
    const foot = async ({ appId, title }: { appId?: string; title: string }) => {
      const p = await asUser(`foot ${title}`, ['WAYLAND_DISPLAY=wayland-1'], ['foot', ...(appId ? ['--app-id', appId] : []), '--title', title]);
      procs.push(p);
      return poll(`foot "${title}" to be mapped`, START_TIMEOUT_MS, [sway, p], async () => findCon(msg('get_tree'), (n) => n.name === title && n.app_id === (appId ?? 'foot'))?.id);
    };
    return { socket, runtimeDir, env, foot, msg, command, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

export interface TreeNode {
  id: number;
  type: string;
  name: string | null;
  app_id?: string | null;
  pid?: number;
  focused: boolean;
  fullscreen_mode?: number;
  rect: { x: number; y: number; width: number; height: number };
  deco_rect: { x: number; y: number; width: number; height: number };
  nodes: TreeNode[];
  floating_nodes: TreeNode[];
}

/** Depth-first search of a get_tree reply; `scratch` says whether the node is in the scratchpad. */
export function findCon(root: unknown, match: (n: TreeNode, scratch: boolean) => boolean): (TreeNode & { scratch: boolean }) | null {
  const walk = (n: TreeNode, scratch: boolean): (TreeNode & { scratch: boolean }) | null => {
    if ((n.type === 'con' || n.type === 'floating_con') && n.nodes.length === 0 && match(n, scratch)) return { ...n, scratch };
    for (const c of [...n.nodes, ...n.floating_nodes]) {
      const found = walk(c, scratch || (c.type === 'workspace' && c.name === '__i3_scratch'));
      if (found) return found;
    }
    return null;
  };
  return walk(root as TreeNode, false);
}

/** The outer frame sway reports for a window: the rect (borders included) and the title bar above it. */
export const frameOfCon = (n: TreeNode): [number, number, number, number] => [n.rect.x, n.rect.y - n.deco_rect.height, n.rect.x + n.rect.width, n.rect.y + n.rect.height];
