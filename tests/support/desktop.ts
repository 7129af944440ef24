// A real, disposable X11 desktop for tests: Xvfb with two side-by-side monitors, openbox,
// optional X11 apps and a real Chromium with remote debugging.
//
// Every process gets its own process group so stop() can take down helpers it never saw
// (Chromium's zygote, renderers, GPU process). It does not import vitest, so the benchmarks
// use it too; the vitest wrapper is describe-desktop.ts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sleep } from '../../src/engine/sleep';
import { liveGroupMembers } from './process-group';
import { startTestPages, type TestPages } from './test-pages';
import { errorMessage } from '../../src/engine/errors';

export type { TestPages } from './test-pages';

export interface DesktopOptions {
  /** Default true: start a real Chromium with remote debugging. */
  chrome?: boolean;
  /** Default []: X11 apps to start; startDesktop resolves once their windows are mapped. */
  apps?: Array<'xterm' | 'xclock'>;
  /** Unpacked extension folders Chromium loads at start (--load-extension). */
  extensions?: string[];
}

export interface ChromeHandle {
  /** Remote-debugging port (line 1 of <userDataDir>/DevToolsActivePort). */
  port: number;
  /** ws://127.0.0.1:<port><line 2 of DevToolsActivePort> */
  browserWsUrl: string;
  /** Fresh temp dir, removed by stop(). */
  userDataDir: string;
  pid: number;
}

export interface Desktop {
  /** e.g. ":5" */
  display: string;
  /** process.env + DISPLAY + DBUS_SESSION_BUS_ADDRESS=disabled: (use it to spawn anything on this desktop). */
  env: NodeJS.ProcessEnv;
  chrome: ChromeHandle | null;
  pages: TestPages;
  pids: { xvfb: number; openbox: number; apps: Record<string, number> };
  /** Idempotent; kills every process group it started and removes temp dirs. */
  stop(): Promise<void>;
}

const CHROMIUM_PATH = '/usr/lib/chromium/chromium';
const APT_INSTALL =
  'apt-get install -y --no-install-recommends xvfb openbox wmctrl xdotool x11-utils x11-xserver-utils xterm x11-apps chromium';

// Bounds are generous: parallel test files share two cores that may be busy with other work, and
// Chromium's first start is the slow part. Nothing waits for them on a healthy start.
const XVFB_TIMEOUT_MS = 60_000;
const TOOL_TIMEOUT_MS = 60_000;
const WM_TIMEOUT_MS = 60_000;
const APP_TIMEOUT_MS = 90_000;
const CHROME_TIMEOUT_MS = 120_000;
/** How long a process group gets to exit after SIGTERM (and again after SIGKILL). */
const STOP_GRACE_MS = 10_000;
const POLL_MS = 25;
/** Enough of a process's output to explain a failed start. */
const LOG_TAIL_CHARS = 4_000;

// ---------------------------------------------------------------------------------------------
// Availability and the vitest wrapper

function onPath(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, cmd);
    try {
      accessSync(file, fsConstants.X_OK);
      return file;
    } catch {
      // not in this directory
    }
  }
  return null;
}

export function chromiumBinary(): string | null {
  try {
    // The /usr/bin/chromium wrapper adds flags and prints a shell warning; the real binary does neither.
    accessSync(CHROMIUM_PATH, fsConstants.X_OK);
    return CHROMIUM_PATH;
  } catch {
    return onPath('chromium');
  }
}

/** null when the real test desktop can run here; otherwise what is missing and how to install it. */
export function desktopUnavailableReason(): string | null {
  if (process.platform !== 'linux') return `The real test desktop needs Linux with X11 tools (this is ${process.platform}).`;
  // xprop and xdotool are used by startDesktop itself to detect readiness.
  const missing = ['Xvfb', 'openbox', 'xrandr', 'xprop', 'xdotool'].filter((cmd) => !onPath(cmd));
  if (!chromiumBinary()) missing.push(`chromium (${CHROMIUM_PATH} or chromium on PATH)`);
  if (missing.length === 0) return null;
  return `The real test desktop is unavailable: missing ${missing.join(', ')}. Install with: ${APT_INSTALL}`;
}

/** How the test desktop starts Chromium: its own profile, remote debugging on a free loopback port. */
export function chromiumArgs(userDataDir: string, extensions: readonly string[] = []): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${userDataDir}`,
    '--remote-debugging-port=0',
    '--remote-debugging-address=127.0.0.1',
    ...(extensions.length ? [`--load-extension=${extensions.join(',')}`] : []),
    'about:blank',
  ];
}

// ---------------------------------------------------------------------------------------------
// Process-group bookkeeping that survives a crashed test run

/** Groups whose leader is still running, across every desktop in this process. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
let watchdog: ChildProcess | null = null;

/**
 * A detached awk that learns live process groups ("g <pgid>") and temp dirs ("d <path>") over a
 * pipe, and at EOF — i.e. when this process dies in any way, even by SIGKILL where no 'exit'
 * handler runs — kills the groups still listed and removes the dirs.
 */
const WATCHDOG_AWK = `
  { key = substr($0, 3) }
  substr($0, 1, 1) == "+" { live[key] = 1 }
  substr($0, 1, 1) == "-" { delete live[key] }
  END {
    for (k in live) if (substr(k, 1, 2) == "g ") system("kill -KILL -" substr(k, 3) " 2>/dev/null")
    for (k in live) if (substr(k, 1, 2) == "d " && index(k, "'") == 0) system("rm -rf '" substr(k, 3) "'")
  }`;

function tellWatchdog(op: '+' | '-', what: 'g' | 'd', value: string | number): void {
  if (!watchdog) {
    watchdog = spawn('awk', [WATCHDOG_AWK], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    // Best effort only: the 'exit' hook below still covers ordinary exits if awk is unusable.
    watchdog.on('error', () => {});
    watchdog.stdin?.on('error', () => {});
    watchdog.unref();
    (watchdog.stdin as unknown as Socket | null)?.unref();
  }
  watchdog.stdin?.write(`${op} ${what} ${value}\n`);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (!(pgid > 1)) return; // kill(-0) would signal our own group: never
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}

function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  tellWatchdog('+', 'g', pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const g of liveGroups) signalGroup(g, 'SIGKILL');
    });
  }
}

function untrackGroup(pgid: number): void {
  // Forget the group as soon as its leader is gone: once empty, its id may be reused by strangers.
  liveGroups.delete(pgid);
  tellWatchdog('-', 'g', pgid);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

export interface Proc {
  name: string;
  pid: number;
  child: ChildProcess;
  /** Resolves on the child's 'exit' event (kill -0 can't tell: zombies still answer it). */
  exited: Promise<void>;
  /** e.g. "code 1" or "signal SIGKILL" once exited, else null. */
  exitStatus: string | null;
  /** Last few KB of stdout+stderr. */
  output(): string;
}

/** true if `promise` settled within `ms`; the timer never keeps Node alive or lingers. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function describeOutput(p: Proc): string {
  const out = p.output().trim();
  return out ? `\n--- last output of ${p.name} ---\n${out}` : '';
}

/** Spawns `cmd` as the leader of a new process group. Output is kept (tail only), never shown. */
export async function launch(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, withFd3 = false): Promise<Proc> {
  const child = spawn(cmd, args, {
    env,
    detached: true,
    stdio: withFd3 ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-LOG_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  // child.pid is set synchronously when the spawn succeeded (undefined when e.g. the binary is missing).
  const pid = child.pid ?? 0;
  if (pid) trackGroup(pid);

  const proc: Proc = { name, pid, child, exited: Promise.resolve(), exitStatus: null, output: () => tail };
  proc.exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      proc.exitStatus = signal ? `signal ${signal}` : `code ${code}`;
      // Sweep orphans (e.g. Chromium helpers) at once, then stop tracking the group.
      if (pid) {
        signalGroup(pid, 'SIGKILL');
        untrackGroup(pid);
      }
      resolve();
    });
  });

  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) => reject(new Error(`cannot start ${name} (${cmd}): ${err.message}`)));
  });
  child.on('error', () => {}); // later errors (e.g. a failed kill) must not crash the test process

  // Neither the children nor their pipes should keep Node alive if a test forgets stop().
  child.unref();
  for (const stream of child.stdio) (stream as Socket | null)?.unref?.();
  return proc;
}

/** SIGTERM the group, wait for the leader's 'exit', SIGKILL if needed, then wait until no member is running. */
export async function stopProc(p: Proc): Promise<void> {
  if (!p.exitStatus) {
    signalGroup(p.pid, 'SIGTERM');
    if (!(await settlesWithin(p.exited, STOP_GRACE_MS))) {
      signalGroup(p.pid, 'SIGKILL');
      await settlesWithin(p.exited, STOP_GRACE_MS);
    }
  }
  const deadline = Date.now() + STOP_GRACE_MS;
  while (liveGroupMembers(p.pid).length > 0 && Date.now() < deadline) {
    signalGroup(p.pid, 'SIGKILL');
    await sleep(POLL_MS);
  }
}

/** Runs a short-lived tool; resolves its stdout, rejects on non-zero exit or timeout. */
export function runTool(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: TOOL_TIMEOUT_MS }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}${stderr ? `\n${stderr}` : ''}`));
      else resolve(stdout);
    });
  });
}

/**
 * Polls `probe` until it returns a value. Fails with a clear message on timeout, or as soon as one
 * of `watch` exits (waiting on a dead process is pointless).
 */
export async function poll<T>(what: string, timeoutMs: number, watch: Proc[], probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const p of watch) {
      if (p.exitStatus) throw new Error(`${p.name} exited (${p.exitStatus}) while waiting for ${what}${describeOutput(p)}`);
    }
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${watch.map(describeOutput).join('')}`);
    }
    await sleep(POLL_MS);
  }
}

/** Resolves once `pid` owns a viewable (mapped) top-level window, via its _NET_WM_PID. */
async function waitForWindowOf(p: Proc, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  await poll(`a mapped window of ${p.name} (pid ${p.pid})`, timeoutMs, [p], async () => {
    const ids = await runTool('xdotool', ['search', '--onlyvisible', '--pid', String(p.pid)], env);
    return ids.trim() ? true : undefined;
  });
}

async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new Error(`startDesktop: ${name} failed: ${errorMessage(err)}`, { cause: err });
  }
}

// ---------------------------------------------------------------------------------------------
// The desktop

export async function startDesktop(opts: DesktopOptions = {}): Promise<Desktop> {
  const { chrome: wantChrome = true, apps = [], extensions = [] } = opts;
  const reason = desktopUnavailableReason();
  if (reason) throw new Error(`startDesktop: ${reason}`);

  // Everything started so far, so a failure at any step (or stop()) can take it down.
  let xvfb: Proc | null = null;
  const clients: Proc[] = [];
  const tempDirs: string[] = [];
  let pages: TestPages | null = null;

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      // Clients first, while their X server still exists, so they can exit cleanly; Xvfb last.
      await Promise.all(clients.map(stopProc));
      if (xvfb) await stopProc(xvfb);
      await pages?.stop();
      await Promise.all(
        tempDirs.map(async (dir) => {
          await rm(dir, { recursive: true, force: true });
          tellWatchdog('-', 'd', dir);
        }),
      );
    })();
    return stopping;
  };

  try {
    pages = await step('starting the test page server', startTestPages);

    const { proc: server, display } = await step('starting Xvfb', async () => {
      const proc = await launch(
        'Xvfb',
        'Xvfb',
        // -displayfd picks a free display (safe with parallel test files) and reports it once ready;
        // -noreset keeps the monitors when the last client disconnects.
        ['-displayfd', '3', '-screen', '0', '3840x1080x24', '-nolisten', 'tcp', '-noreset'],
        process.env,
        true,
      );
      xvfb = proc;
      let reported = '';
      proc.child.stdio[3]?.on('data', (chunk: Buffer) => (reported += chunk.toString('utf8')));
      const number = await poll('Xvfb to report its display number', XVFB_TIMEOUT_MS, [proc], async () =>
        /^\d+\n/.test(reported) ? reported.trim() : undefined,
      );
      (proc.child.stdio[3] as Socket | null)?.destroy();
      return { proc, display: `:${number}` };
    });

    const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: 'disabled:' };
    // A Wayland session leaking in from the developer's shell would pull Chromium off this X server,
    // and DeskPilot's window backend off it too (it picks sway, KWin or GNOME from these).
    for (const v of ['WAYLAND_DISPLAY', 'XDG_SESSION_TYPE', 'XDG_CURRENT_DESKTOP', 'SWAYSOCK', 'I3SOCK']) delete env[v];

    await step('defining the two monitors with xrandr', async () => {
      // Before the WM starts, so openbox computes work areas per monitor from the beginning.
      await runTool('xrandr', ['--setmonitor', 'LEFT', '1920/508x1080/286+0+0', 'screen'], env);
      await runTool('xrandr', ['--setmonitor', 'RIGHT', '1920/508x1080/286+1920+0', 'none'], env);
    });

    const openbox = await step('starting openbox', async () => {
      const proc = await launch('openbox', 'openbox', ['--sm-disable'], env);
      clients.push(proc);
      await poll('openbox to set _NET_SUPPORTING_WM_CHECK on the root window', WM_TIMEOUT_MS, [proc, server], async () => {
        const out = await runTool('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], env);
        return /window id #/.test(out) ? true : undefined;
      });
      return proc;
    });

    const startApp = (app: string) =>
      step(`starting ${app}`, async () => {
        const proc = await launch(app, app, [], env);
        clients.push(proc);
        await waitForWindowOf(proc, env, APP_TIMEOUT_MS);
        return [app, proc.pid] as const;
      });

    const startChrome = () =>
      step('starting Chromium', async (): Promise<ChromeHandle> => {
        const binary = chromiumBinary()!;
        const userDataDir = await mkdtemp(path.join(tmpdir(), 'deskpilot-chrome-'));
        tempDirs.push(userDataDir);
        tellWatchdog('+', 'd', userDataDir);
        const proc = await launch(
          'Chromium',
          binary,
          chromiumArgs(userDataDir, extensions),
          env,
        );
        clients.push(proc);
        const portFile = path.join(userDataDir, 'DevToolsActivePort');
        const [port, wsPath] = await poll(`Chromium to write ${portFile}`, CHROME_TIMEOUT_MS, [proc], async () => {
          // Chromium may be caught mid-write: only accept both lines complete.
          const [line1 = '', line2 = ''] = (await readFile(portFile, 'utf8')).split('\n');
          const port = Number(line1);
          return Number.isInteger(port) && port > 0 && line2.startsWith('/') ? ([port, line2.trim()] as const) : undefined;
        });
        await waitForWindowOf(proc, env, CHROME_TIMEOUT_MS);
        return { port, browserWsUrl: `ws://127.0.0.1:${port}${wsPath}`, userDataDir, pid: proc.pid };
      });

    // Chromium and the apps start in parallel (Chromium dominates start-up time). Wait for all of
    // them to settle even when one fails, so the teardown below sees every process that was spawned.
    const [chromeResult, ...appResults] = await Promise.allSettled([
      wantChrome ? startChrome() : Promise.resolve(null),
      ...[...new Set(apps)].map(startApp),
    ]);
    const failure = [chromeResult, ...appResults].find((r) => r?.status === 'rejected');
    if (failure) throw (failure as PromiseRejectedResult).reason;

    return {
      display,
      env,
      chrome: (chromeResult as PromiseFulfilledResult<ChromeHandle | null>).value,
      pages,
      pids: {
        xvfb: server.pid,
        openbox: openbox.pid,
        apps: Object.fromEntries(appResults.map((r) => (r as PromiseFulfilledResult<readonly [string, number]>).value)),
      },
      stop,
    };
  } catch (err) {
    await stop().catch((stopErr: unknown) => {
      if (err instanceof Error) err.message += `\n(cleanup after the failure also failed: ${String(stopErr)})`;
    });
    throw err;
  }
}
