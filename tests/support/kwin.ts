// A real, disposable KDE Plasma (KWin 5.27) Wayland session for tests: a private D-Bus session
// bus, `kwin_wayland --virtual` with two 1920×1080 outputs side by side, and real Wayland clients
// (weston-terminal; a GTK 3 window through python3-gi). Everything runs in its own process group
// and temp dir, both removed by stop(). No vitest here: the windows bench uses it too.
//
// It observes KWin without DeskPilot's code: scripts loaded with `gdbus` that print() their answer
// (KWin writes it to its stderr, "js: …"), and KWin's own org.kde.KWin.getWindowInfo.
import { execFileSync } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { launch, poll, runTool, stopProc, type Proc } from './desktop';

export const KWIN_APT_PACKAGES = 'kwin-wayland qdbus-qt5 dbus weston python3-gi gir1.2-gtk-3.0 libglib2.0-bin';
const PYTHON = '/usr/bin/python3';
const START_TIMEOUT_MS = 60_000;
const CLIENT_TIMEOUT_MS = 60_000;
const OBSERVE_TIMEOUT_MS = 30_000;

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, cmd), fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

let gtkChecked: boolean | null = null;
function hasGtk3(): boolean {
  gtkChecked ??= (() => {
    try {
      execFileSync(PYTHON, ['-c', "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  return gtkChecked;
}

/** null when a KWin session can run here; otherwise what is missing and how to install it. */
export function kwinSessionUnavailableReason(): string | null {
  if (process.platform !== 'linux') return `KWin needs Linux (this is ${process.platform})`;
  const missing = ['kwin_wayland', 'dbus-daemon', 'gdbus', 'weston-terminal'].filter((cmd) => !onPath(cmd));
  if (!hasGtk3()) missing.push(`GTK 3 for ${PYTHON} (python3-gi, gir1.2-gtk-3.0)`);
  if (missing.length === 0) return null;
  return `A KWin Wayland session cannot start here: missing ${missing.join(', ')}. Install with: apt-get install -y --no-install-recommends ${KWIN_APT_PACKAGES}`;
}

/** A window as KWin's own getWindowInfo reports it. */
export interface KwinWindowFacts {
  caption: string;
  resourceClass: string;
  rect: [number, number, number, number];
  minimized: boolean;
  fullscreen: boolean;
}

/** A window as a gdbus-loaded script lists it. */
export interface ObservedWindow {
  id: string;
  pid: number;
  caption: string;
  resourceClass: string;
  resourceName: string;
  rect: [number, number, number, number];
  minimized: boolean;
  fullScreen: boolean;
  active: boolean;
  stacking: number;
}

export interface KwinSession {
  /** Everything a client of this session needs (bus, Wayland display, runtime dir); no DISPLAY. */
  env: NodeJS.ProcessEnv;
  dir: string;
  /** A GTK 3 window titled `title`, its app id `appId`; resolves once KWin manages it. */
  startGtkWindow(title: string, appId: string): Promise<{ pid: number; id: string }>;
  /** weston-terminal; resolves once KWin manages its window. */
  startWestonTerminal(): Promise<{ pid: number; id: string }>;
  /** Every normal window, read by a script loaded with gdbus (print() to KWin's stderr). */
  observe(): Promise<ObservedWindow[]>;
  /** One window through org.kde.KWin.getWindowInfo (gdbus). */
  windowInfo(id: string): Promise<KwinWindowFacts>;
  /** Runs a KWin script the gdbus way (load, run, unload): what `qdbus`/`gdbus` users do. */
  runScriptWithGdbus(source: string): Promise<void>;
  /** Idempotent: stops the clients, KWin and the bus, and removes the temp dir. */
  stop(): Promise<void>;
}

const OBSERVE_SCRIPT = (nonce: string) => `
var list = workspace.windowList ? workspace.windowList() : workspace.clientList();
var active = workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient;
var out = [];
for (var i = 0; i < list.length; i++) {
  var c = list[i];
  if (!c.normalWindow) continue;
  var g = c.frameGeometry;
  out.push({ id: String(c.internalId), pid: c.pid, caption: String(c.caption), resourceClass: String(c.resourceClass),
    resourceName: String(c.resourceName), rect: [g.x, g.y, g.x + g.width, g.y + g.height], minimized: !!c.minimized,
    fullScreen: !!c.fullScreen, active: !!active && active.internalId === c.internalId,
    stacking: workspace.stackingOrder ? workspace.stackingOrder.indexOf(c) : c.stackingOrder });
}
print('DPOBS ${nonce} ' + JSON.stringify(out));
`;

const GTK_WINDOW = `
import sys, gi
gi.require_version('Gtk', '3.0')
from gi.repository import GLib, Gtk
GLib.set_prgname(sys.argv[2])
w = Gtk.Window(title=sys.argv[1])
w.set_default_size(640, 400)
w.connect('destroy', Gtk.main_quit)
w.show_all()
Gtk.main()
`;

export async function startKwinSession(): Promise<KwinSession> {
  const reason = kwinSessionUnavailableReason();
  if (reason) throw new Error(reason);
  const dir = await mkdtemp(path.join(tmpdir(), 'deskpilot-kwin-session-'));
  const runtime = path.join(dir, 'runtime');
  await mkdir(runtime, { mode: 0o700 });
  const procs: Proc[] = [];
  let bus: Proc | null = null;
  let kwin: Proc | null = null;
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // The processes and their pipes are unref'd: in a plain Node script (the bench) nothing else
      // may hold the event loop while they are waited for, and Node would exit mid-cleanup.
      const hold = setInterval(() => undefined, 1000);
      try {
        // Clients first (they exit cleanly while KWin is up), then KWin, then the bus.
        await Promise.all(procs.map(stopProc));
        if (kwin) await stopProc(kwin);
        if (bus) await stopProc(bus);
        await rm(dir, { recursive: true, force: true });
      } finally {
        clearInterval(hold);
      }
    })());

  try {
    const address = `unix:path=${path.join(runtime, 'bus')}`;
    bus = await launch('dbus-daemon', 'dbus-daemon', ['--session', '--nofork', '--nopidfile', `--address=${address}`, '--print-address=1'], process.env);
    const busProc = bus;
    await poll('the private session bus to listen', START_TIMEOUT_MS, [busProc], async () => (busProc.output().includes(address) ? true : undefined));

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      XDG_RUNTIME_DIR: runtime,
      DBUS_SESSION_BUS_ADDRESS: address,
      WAYLAND_DISPLAY: 'wayland-kw',
      XDG_SESSION_TYPE: 'wayland',
      XDG_CURRENT_DESKTOP: 'KDE',
      QT_QPA_PLATFORM: 'wayland',
    };
    // A session leaking in from the caller's shell must not pull clients elsewhere.
    for (const key of ['DISPLAY', 'SWAYSOCK', 'I3SOCK']) delete env[key];

    // /usr/bin/kwin_wayland carries the file capability cap_sys_resource, which a container
    // refuses ("Operation not permitted"); a plain copy runs (it only raises its rlimits with it).
    const binary = path.join(dir, 'kwin_wayland');
    await copyFile((await runTool('sh', ['-c', 'command -v kwin_wayland'], env)).trim(), binary);
    const kwinArgs = ['--virtual', '--width', '1920', '--height', '1080', '--output-count', '2', '--socket', 'wayland-kw'];
    kwin = await launch('kwin_wayland', binary, [...kwinArgs, '--no-lockscreen', '--no-global-shortcuts', '--no-kactivities'], env);
    const kwinProc = kwin;
    await poll('KWin to serve org.kde.KWin /Scripting', START_TIMEOUT_MS, [kwinProc, busProc], async () => {
      await runTool('gdbus', ['call', '--session', '-d', 'org.kde.KWin', '-o', '/Scripting', '-m', 'org.freedesktop.DBus.Peer.Ping'], env);
      return true;
    });

    let scriptSeq = 0;
    const runScriptWithGdbus = async (source: string) => {
      const name = `deskpilot_test_${++scriptSeq}`;
      const file = path.join(dir, `${name}.js`);
      await writeFile(file, source);
      const gdbus = (objectPath: string, method: string, ...args: string[]) =>
        runTool('gdbus', ['call', '--session', '-d', 'org.kde.KWin', '-o', objectPath, '-m', method, ...args], env);
      const id = Number(/-?\d+/.exec(await gdbus('/Scripting', 'org.kde.kwin.Scripting.loadScript', file, name))?.[0]);
      try {
        // Plasma 5 exports loaded scripts at /<id>, Plasma 6 at /Scripting/Script<id>.
        await gdbus(`/${id}`, 'org.kde.kwin.Script.run').catch(() => gdbus(`/Scripting/Script${id}`, 'org.kde.kwin.Script.run'));
      } finally {
        await gdbus('/Scripting', 'org.kde.kwin.Scripting.unloadScript', name);
        await rm(file, { force: true });
      }
    };

    const observe = async (): Promise<ObservedWindow[]> => {
      const nonce = randomUUID();
      let seen = '';
      const listen = (chunk: Buffer) => (seen += chunk.toString('utf8'));
      kwinProc.child.stderr?.on('data', listen);
      try {
        await runScriptWithGdbus(OBSERVE_SCRIPT(nonce));
        const line = await poll('KWin to print the observed windows', OBSERVE_TIMEOUT_MS, [kwinProc], async () => {
          const match = new RegExp(`DPOBS ${nonce} (.*)`).exec(seen);
          return match ? match[1]! : undefined;
        });
        return JSON.parse(line) as ObservedWindow[];
      } finally {
        kwinProc.child.stderr?.off('data', listen);
      }
    };

    const windowInfo = async (id: string): Promise<KwinWindowFacts> => {
      const out = await runTool('gdbus', ['call', '--session', '-d', 'org.kde.KWin', '-o', '/KWin', '-m', 'org.kde.KWin.getWindowInfo', id], env);
      const field = (name: string) => new RegExp(`'${name}': <([^>]*)>`).exec(out)?.[1] ?? '';
      const num = (name: string) => Math.round(Number(field(name)));
      const [x, y] = [num('x'), num('y')];
      return {
        caption: field('caption').replace(/^'|'$/g, ''),
        resourceClass: field('resourceClass').replace(/^'|'$/g, ''),
        rect: [x, y, x + num('width'), y + num('height')],
        minimized: field('minimized') === 'true',
        fullscreen: field('fullscreen') === 'true',
      };
    };

    const startClient = async (name: string, cmd: string, args: string[], clientEnv: NodeJS.ProcessEnv) => {
      const proc = await launch(name, cmd, args, clientEnv);
      procs.push(proc);
      const win = await poll(`a KWin window of ${name} (pid ${proc.pid})`, CLIENT_TIMEOUT_MS, [proc, kwinProc], async () =>
        (await observe()).find((w) => w.pid === proc.pid),
      );
      return { pid: proc.pid, id: win.id };
    };

    return {
      env,
      dir,
      startGtkWindow: async (title, appId) => {
        const script = path.join(dir, 'gtk-window.py');
        await writeFile(script, GTK_WINDOW);
        return startClient(title, PYTHON, [script, title, appId], { ...env, GDK_BACKEND: 'wayland' });
      },
      // foot would be the natural terminal, but it crashes on KWin's virtual outputs (their
      // physical size is -1×-1 mm and foot divides by it); weston-terminal copes.
      startWestonTerminal: () => startClient('weston-terminal', 'weston-terminal', [], env),
      observe,
      windowInfo,
      runScriptWithGdbus,
      stop,
    };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
