// A real, disposable GNOME Shell 43 session for tests and benches: `gnome-shell --headless
// --wayland` with two 1920x1080 virtual monitors side by side (Meta-0 at 0,0 with the top bar,
// Meta-1 at 1920,0), its own session bus, a throwaway system bus (the shell's logind code needs
// one), its own HOME and runtime dir, and — unless asked not to — DeskPilot's extension installed
// and enabled BEFORE the shell starts (a shell loads a new extension only at start). foot
// terminals are the Wayland clients. No vitest here: the bench uses it too.
import { mkdtempSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyExtension, extensionSourceDir, extensionTargetDir, setEnabled } from '../../src/platform/windows/gnome/extension-install';
import { BUS_NAME, INTERFACE, OBJECT_PATH } from '../../src/platform/windows/gnome/extension-answers';
import { launch, poll, runTool, stopProc, type Proc } from './desktop';

const START_TIMEOUT_MS = 90_000;
const CLIENT_TIMEOUT_MS = 60_000;
const APT_INSTALL = 'apt-get install -y --no-install-recommends gnome-shell dbus foot libglib2.0-bin';
const WAYLAND_DISPLAY = 'wayland-gs';

export interface GnomeSession {
  /** Session-bus address (what DBUS_SESSION_BUS_ADDRESS names). */
  busAddress: string;
  runtimeDir: string;
  home: string;
  /** For DeskPilot and tools: a GNOME Wayland session's variables, none of the caller's displays. */
  env: NodeJS.ProcessEnv;
  /** Starts a foot window with this app id and title; resolves with the window's id once the extension lists it. */
  foot(opts: { appId: string; title: string }): Promise<string>;
  /** `gdbus call` to the extension: its own answer through GLib's own tool, e.g. call('List'). */
  call(method: string, ...args: string[]): Promise<string>;
  /** The extension's List, parsed (the compositor's own view, for assertions). */
  windows(): Promise<ShellWindowView[]>;
  stop(): Promise<void>;
}

export interface ShellWindowView {
  id: string;
  title: string;
  wm_class: string | null;
  pid: number | null;
  frame: { x: number; y: number; width: number; height: number };
  minimized: boolean;
  fullscreen: boolean;
  maximized: boolean;
  focused: boolean;
  stacking: number;
}

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      return !!dir && statSync(path.join(dir, cmd)).isFile();
    } catch {
      return false;
    }
  });
}

/** null when a headless GNOME Shell can run here; otherwise what is missing and how to install it. */
export function gnomeUnavailableReason(): string | null {
  if (process.platform !== 'linux') return `headless GNOME Shell needs Linux (this is ${process.platform})`;
  const missing = ['gnome-shell', 'dbus-daemon', 'gdbus', 'gsettings', 'foot'].filter((c) => !onPath(c));
  return missing.length ? `headless GNOME Shell is unavailable: missing ${missing.join(', ')}. Install with: ${APT_INSTALL}` : null;
}

/** `[x, y, w, h]` of a listed window's frame as [left, top, right, bottom]. */
export const frameOf = (w: ShellWindowView): [number, number, number, number] => [w.frame.x, w.frame.y, w.frame.x + w.frame.width, w.frame.y + w.frame.height];

export async function startGnome(opts: { extension?: boolean } = {}): Promise<GnomeSession> {
  const withExtension = opts.extension ?? true;
  const root = mkdtempSync(path.join(tmpdir(), 'deskpilot-gnome-'));
  const runtimeDir = path.join(root, 'rt');
  const home = path.join(root, 'home');
  await mkdir(runtimeDir, { mode: 0o700 });
  await mkdir(home, { recursive: true });
  const busAddress = `unix:path=${path.join(runtimeDir, 'bus')}`;
  const systemBus = `unix:path=${path.join(runtimeDir, 'system-bus')}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    HOME: home,
    XDG_RUNTIME_DIR: runtimeDir,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_SESSION_TYPE: 'wayland',
    XDG_CURRENT_DESKTOP: 'GNOME',
    WAYLAND_DISPLAY,
    DBUS_SESSION_BUS_ADDRESS: busAddress,
    DBUS_SYSTEM_BUS_ADDRESS: systemBus,
  };
  const procs: Proc[] = [];
  const clients: Proc[] = [];
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // The children are unref'd (launch): without this a script's last await here would end Node early.
      const hold = setInterval(() => undefined, 1000);
      try {
        // Clients first, then the shell (SIGTERM ends it in a segfault, 139: harmless), then the buses.
        await Promise.all(clients.map(stopProc));
        for (const p of [...procs].reverse()) await stopProc(p);
        await rm(root, { recursive: true, force: true });
      } finally {
        clearInterval(hold);
      }
    })());

  try {
    // The buses: dconf-service and at-spi are started by the session bus and stay in its process group.
    const bus = (name: string, address: string) => launch(name, 'dbus-daemon', ['--session', '--nofork', `--address=${address}`], env);
    procs.push(await bus('system bus (throwaway)', systemBus), await bus('session bus', busAddress));
    const busUp = (address: string) => () =>
      runTool('gdbus', ['call', '--address', address, '-d', 'org.freedesktop.DBus', '-o', '/org/freedesktop/DBus', '-m', 'org.freedesktop.DBus.GetId'], env).then(() => true);
    await poll('the throwaway system bus', START_TIMEOUT_MS, procs, busUp(systemBus));
    await poll('the session bus', START_TIMEOUT_MS, procs, busUp(busAddress));

    if (withExtension) {
      const source = extensionSourceDir();
      if (!source) throw new Error('gnome-extension/deskpilot@deskpilot.app was not found beside the sources');
      // Debian 12's GNOME Shell is 43: the script form.
      await copyExtension(source, extensionTargetDir(env, home), 'legacy');
      await setEnabled(env, true);
    }

    const shell = await launch(
      'gnome-shell',
      'gnome-shell',
      ['--headless', '--wayland', '--no-x11', `--wayland-display=${WAYLAND_DISPLAY}`, '--virtual-monitor', '1920x1080', '--virtual-monitor', '1920x1080'],
      env,
    );
    procs.push(shell);
    // Ready: the extension answers (with it), or the shell owns its name and the Wayland socket is up (without).
    const gdbusCall = (method: string, ...args: string[]) =>
      runTool('gdbus', ['call', '--session', '-d', BUS_NAME, '-o', OBJECT_PATH, '-m', `${INTERFACE}.${method}`, ...args], env);
    await poll(withExtension ? "DeskPilot's extension on the session bus" : 'GNOME Shell on the session bus', START_TIMEOUT_MS, procs, async () => {
      if (withExtension) return (await gdbusCall('Info')) ? true : undefined;
      const out = await runTool('gdbus', ['call', '--session', '-d', 'org.freedesktop.DBus', '-o', '/org/freedesktop/DBus', '-m', 'org.freedesktop.DBus.NameHasOwner', 'org.gnome.Shell'], env);
      return out.includes('true') ? true : undefined;
    });

    const windows = async (): Promise<ShellWindowView[]> => {
      const out = await gdbusCall('List');
      // gdbus prints ('<json>',): the JSON is a GVariant string literal in single quotes.
      const literal = /^\('(.*)',\)\s*$/s.exec(out)?.[1];
      if (literal === undefined) throw new Error(`unexpected List answer: ${out}`);
      return JSON.parse(literal.replace(/\\(.)/g, '$1')) as ShellWindowView[];
    };

    return {
      busAddress,
      runtimeDir,
      home,
      env,
      call: gdbusCall,
      windows,
      async foot({ appId, title }) {
        const known = new Set((await windows()).map((w) => w.id));
        const p = await launch(`foot ${appId}`, 'foot', ['--app-id', appId, '--title', title], env);
        clients.push(p);
        const win = await poll(`foot ${appId}'s window in the extension's List`, CLIENT_TIMEOUT_MS, [p, shell], async () =>
          (await windows()).find((w) => !known.has(w.id) && w.wm_class === appId && w.title === title),
        );
        return win.id;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
