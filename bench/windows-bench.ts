// Windows bench: DeskPilot's X11 backend (the X protocol over one warm connection) against the
// command-line tools a script would run (wmctrl, xrandr, xwininfo), with 20 real windows on a
// real Xvfb desktop with two monitors and openbox. Figures only; targets are reported, never asserted.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { RawMonitor, RawWindow, Rect4 } from '../src/engine/ports';
import { internAtoms, type Atoms } from '../src/platform/windows/x11/atoms';
import { requestMoveResize } from '../src/platform/windows/x11/ewmh-requests';
import { expectedFrame, sameRect } from '../src/platform/windows/x11/frame-geometry';
import { parseWindowId } from '../src/platform/windows/x11/window-id';
import { readFrame, readSizeHints } from '../src/platform/windows/x11/window-reader';
import { XConnection } from '../src/platform/windows/x11/x-connection';
import { createX11WindowBackend, type X11WindowBackend } from '../src/platform/windows/x11/x11-backend';
import { startDesktop, type Desktop } from '../tests/support/desktop';
import { fmtMs, fmtRatio, fmtStats, formatTable, machineNote, sleep, stats, waitForQuietCpu, type Stats, cleanUpOnInterrupt } from './stats';

const TOTAL_WINDOWS = 20;
/** startDesktop opens one xterm and one xclock; the bench adds the rest, alternating the two. */
const BASE_APPS = ['xterm', 'xclock'] as const;
const LIST_WARMUP = 10;
const LIST_N = 60;
const PLACE_WARMUP = 4;
const PLACE_N = 40;
const LIST_TARGET_MS = 5;
const LIST_TARGET_RATIO = 5;
const PLACE_TARGET_RATIO = 5;
/** The backend's own poll interval while waiting for the WM (x11-backend.ts POLL_MS); the shell polls alike. */
const SHELL_POLL_MS = 10;
/** The X11 backend's own poll interval while it waits for the WM (x11-backend.ts POLL_MS). */
const BACKEND_POLL_MS = 2;
const MAPPED_TIMEOUT_MS = 30_000;
const APPLY_TIMEOUT_MS = 2_000;
const TOOL_TIMEOUT_MS = 10_000;
const STOP_GRACE_MS = 2_000;
/** Two outer frames, one on each monitor (LEFT is 0..1920, RIGHT 1920..3840; both 1080 high). */
const RECTS: readonly [Rect4, Rect4] = [
  [200, 150, 1000, 750],
  [2200, 200, 3000, 800],
];

interface Row {
  measure: string;
  deskpilot: Stats | null;
  shell: Stats | null;
  target: string;
}

interface Spawned {
  name: string;
  pid: number;
  child: ChildProcess;
  exited: Promise<void>;
  exitStatus: string | null;
}

/** Client geometry as xwininfo prints it (absolute position of the client window, its size). */
interface ClientGeom {
  x: number;
  y: number;
  w: number;
  h: number;
}

export async function run(): Promise<void> {
  const started = performance.now();
  console.log(`Windows bench: ${TOTAL_WINDOWS} windows (xterm + xclock) on Xvfb with two monitors and openbox`);

  let desk: Desktop | null = null;
  const extra: Spawned[] = [];
  let backend: X11WindowBackend | null = null;
  let raw: XConnection | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await backend?.dispose().catch(() => undefined);
      await raw?.close().catch(() => undefined);
      // Our own windows first, while their X server still runs; then the desktop (Xvfb last).
      await Promise.all(extra.map(stopSpawned));
      await desk?.stop();
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);

  try {
    const t0 = performance.now();
    desk = await startDesktop({ apps: [...BASE_APPS], chrome: false });
    const desktopUpMs = performance.now() - t0;
    const env = desk.env;

    // The remaining windows, spawned detached (own process group each) into the desktop's DISPLAY.
    const t1 = performance.now();
    const have = (await wmctrlList(env)).length;
    for (let i = 0; i < TOTAL_WINDOWS - have; i++) {
      const app = i % 2 === 0 ? 'xterm' : 'xclock';
      extra.push(await spawnApp(app, app === 'xterm' ? ['-title', `bench xterm ${i + 1}`] : [], env));
    }
    await waitForWindowCount(env, TOTAL_WINDOWS, extra);
    const windowsUpMs = performance.now() - t1;
    await sleep(200);
    await waitForQuietCpu();

    backend = createX11WindowBackend({ display: desk.display });
    const dp = backend;
    const tc = performance.now();
    const [coldWindows, coldMonitors]: [RawWindow[], RawMonitor[]] = await Promise.all([dp.listWindows(), dp.listMonitors()]);
    const coldMs = performance.now() - tc;
    if (coldWindows.length !== TOTAL_WINDOWS || coldMonitors.length !== 2) {
      throw new Error(`expected ${TOTAL_WINDOWS} windows on 2 monitors, the backend sees ${coldWindows.length} on ${coldMonitors.length}`);
    }

    const rows: Row[] = [];
    const notes: string[] = [];
    const list = await benchListing(dp, env);
    rows.push(list.row);
    notes.push(...list.notes);

    // The window to place: startDesktop's own xterm.
    const xtermPid = desk.pids.apps.xterm;
    const win = coldWindows.find((w) => w.pid === xtermPid);
    if (!win) throw new Error(`no window of xterm (pid ${xtermPid}) among ${coldWindows.length}`);
    raw = await XConnection.open(desk.display, 5_000);
    const place = await benchPlacing(dp, raw, await internAtoms(raw), win.id, env);
    rows.push(...place.rows);
    notes.push(...place.notes);

    console.log('');
    console.log(
      formatTable([
        ['measure', 'DeskPilot p50 (p95)', 'shell p50 (p95)', 'ratio', 'target met?'],
        ...rows.map((r) => [
          r.measure,
          fmtStats(r.deskpilot),
          fmtStats(r.shell),
          r.deskpilot && r.shell ? fmtRatio(r.shell.p50 / r.deskpilot.p50) : '—',
          r.target,
        ]),
      ]),
    );
    console.log('');
    console.log('ratio = shell p50 / DeskPilot p50. Shell = each tool spawned with execFile (as a Node script would) and its output parsed.');
    for (const note of notes) console.log(note);
    console.log(
      `machine: ${machineNote([
        `desktop up ${fmtMs(desktopUpMs)}`,
        `${extra.length} more windows mapped in ${fmtMs(windowsUpMs)}`,
        `cold first listing incl. connect ${fmtMs(coldMs)}`,
      ])}; bench total ${fmtMs(performance.now() - started)}`,
    );
  } finally {
    await cleanup();
    uninstall();
  }
  // The same figures for the other window backends, each on its own compositor.
  await (await import('./windows-sway-bench')).run();
  // GNOME Shell, on its own headless compositor (windows-gnome-bench.ts).
  await (await import('./windows-gnome-bench')).run();
  // KDE Plasma's KWin, on its own virtual outputs (windows-kwin-bench.ts).
  await (await import('./windows-kwin-bench')).run();
}

// ---------------------------------------------------------------------------------------------
// 1. Listing windows and monitors

async function benchListing(dp: X11WindowBackend, env: NodeJS.ProcessEnv): Promise<{ row: Row; notes: string[] }> {
  const [deskpilot, shell, shellSeq, windowsOnly, monitorsOnly, wmctrlOnly, xrandrOnly] = await interleaved(
    [
      async () => {
        const [windows, monitors] = await Promise.all([dp.listWindows(), dp.listMonitors()]);
        if (windows.length !== TOTAL_WINDOWS || monitors.length !== 2) throw new Error(`listing saw ${windows.length} windows, ${monitors.length} monitors`);
      },
      async () => {
        // Both tools at once (kinder to the shell than a script running them one after the other).
        const [windows, monitors] = await Promise.all([wmctrlList(env), xrandrMonitors(env)]);
        if (windows.length !== TOTAL_WINDOWS || monitors.length !== 2) throw new Error(`shell saw ${windows.length} windows, ${monitors.length} monitors`);
      },
      async () => {
        const windows = await wmctrlList(env);
        const monitors = await xrandrMonitors(env);
        if (windows.length !== TOTAL_WINDOWS || monitors.length !== 2) throw new Error(`shell saw ${windows.length} windows, ${monitors.length} monitors`);
      },
      // For the breakdown only: each half alone.
      () => dp.listWindows(),
      () => dp.listMonitors(),
      () => wmctrlList(env),
      () => xrandrMonitors(env),
    ].map((fn) => ({ run: fn })),
    LIST_WARMUP,
    LIST_N,
  );
  const d = stats(deskpilot!);
  const s = stats(shell!);
  const ratio = s.p50 / d.p50;
  const under = d.p50 < LIST_TARGET_MS;
  const fast = ratio >= LIST_TARGET_RATIO;
  return {
    row: {
      measure: `list ${TOTAL_WINDOWS} windows + 2 monitors, warm`,
      deskpilot: d,
      shell: s,
      target: `${under && fast ? 'yes' : 'NO'} (<${LIST_TARGET_MS} ms: ${under ? 'yes' : 'no'}, ≥${LIST_TARGET_RATIO}x: ${fast ? 'yes' : 'no'})`,
    },
    notes: [
      `listing: Promise.all([backend.listWindows(), backend.listMonitors()]) on the backend's warm X connection (titles, WM_CLASS, pid, ` +
        `outer frames incl. decorations, focus, minimised; monitors with work areas) vs wmctrl -lpGx and xrandr --listmonitors run in parallel, parsed. ` +
        `N=${LIST_N} each after ${LIST_WARMUP} warm-up, interleaved. min DeskPilot ${fmtMs(d.min)}, min shell ${fmtMs(s.min)}; ` +
        `the same two tools one after the other (as a shell script runs them) ${fmtStats(stats(shellSeq!))}. ` +
        `Each half alone (p50): listWindows ${fmtMs(stats(windowsOnly!).p50)}, listMonitors ${fmtMs(stats(monitorsOnly!).p50)}; ` +
        `wmctrl -lpGx ${fmtMs(stats(wmctrlOnly!).p50)}, xrandr --listmonitors ${fmtMs(stats(xrandrOnly!).p50)}.`,
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Placing one window

async function benchPlacing(
  dp: X11WindowBackend,
  conn: XConnection,
  atoms: Atoms,
  id: string,
  env: NodeJS.ProcessEnv,
): Promise<{ rows: Row[]; notes: string[] }> {
  const xid = parseWindowId(id)!;
  // Untimed set-up: put the window on each rect once, and note where its client window then is,
  // so the shell side asks for exactly the client size DeskPilot's request leads to.
  const granted: Rect4[] = [];
  const client: ClientGeom[] = [];
  for (const rect of RECTS) {
    granted.push(await dp.setFrameBounds(id, rect));
    client.push(await xwininfo(env, id));
  }
  const [{ extents, border }, hints] = await Promise.all([readFrame(conn, atoms, xid), readSizeHints(conn, xid)]);
  const expected = RECTS.map((r) => expectedFrame(r, extents, border, hints));
  if (!sameRect(granted[0]!, expected[0]!) || !sameRect(granted[1]!, expected[1]!)) {
    throw new Error(`setFrameBounds granted ${JSON.stringify(granted)}, expected ${JSON.stringify(expected)}`);
  }

  // Every call, whichever side makes it, moves the window to the other monitor.
  let at: 0 | 1 = 1;
  const next = (): 0 | 1 => (at = at === 0 ? 1 : 0);

  const wmctrlOnly: number[] = [];
  const shellFull: number[] = [];
  let shellFirstChangeFinal = 0;
  let shellPolls = 0;
  let shellCalls = 0;
  const rawRequest: number[] = [];
  const rawApplied: number[] = [];
  let recording = false;

  const [deskpilot] = await interleaved(
    [
      // DeskPilot: the whole setFrameBounds, which returns once the WM has applied the frame.
      { run: () => dp.setFrameBounds(id, RECTS[next()]) },
      // Shell: wmctrl -e, then xwininfo every 10 ms until the client geometry differs from before.
      {
        run: async () => {
          const to = next();
          const before = await xwininfo(env, id); // untimed: a script could know it from its last call
          const g = client[to]!;
          const t0 = performance.now();
          await tool('wmctrl', ['-ir', id, '-e', `0,${RECTS[to][0]},${RECTS[to][1]},${g.w},${g.h}`], env);
          const t1 = performance.now();
          let now: ClientGeom;
          let polls = 0;
          const deadline = t1 + APPLY_TIMEOUT_MS;
          for (;;) {
            now = await xwininfo(env, id);
            polls++;
            if (!sameGeom(now, before)) break;
            if (performance.now() > deadline) throw new Error(`wmctrl -e did not move ${id} within ${APPLY_TIMEOUT_MS} ms`);
            await sleep(SHELL_POLL_MS);
          }
          const t2 = performance.now();
          // Untimed: did the first changed geometry already match the target? Then let it settle there.
          const final = sameGeom(now, g);
          if (recording) {
            wmctrlOnly.push(t1 - t0);
            shellFull.push(t2 - t0);
            shellCalls++;
            shellPolls += polls;
            if (final) shellFirstChangeFinal++;
          }
          if (!final) await waitFor(() => xwininfo(env, id).then((c) => sameGeom(c, g)), `${id} to reach ${JSON.stringify(g)}`);
        },
      },
      // Raw: only the _NET_MOVERESIZE_WINDOW request (resolves once the X server processed it),
      // then a tight poll (no pause) of the frame to find when the WM applied it.
      {
        run: async () => {
          const to = next();
          const t0 = performance.now();
          await requestMoveResize(conn, atoms, xid, RECTS[to], extents, border);
          const t1 = performance.now();
          const deadline = t1 + APPLY_TIMEOUT_MS;
          while (!sameRect((await readFrame(conn, atoms, xid)).frame, expected[to]!)) {
            if (performance.now() > deadline) throw new Error(`the WM did not apply the request for ${id} within ${APPLY_TIMEOUT_MS} ms`);
          }
          const t2 = performance.now();
          if (recording) {
            rawRequest.push(t1 - t0);
            rawApplied.push(t2 - t0);
          }
        },
      },
    ],
    PLACE_WARMUP,
    PLACE_N,
    (on) => (recording = on),
  );

  // The window must end where the last call put it.
  const last = (await dp.listWindows()).find((w) => w.id === id);
  if (!last || !sameRect(last.bounds, expected[at]!)) throw new Error(`after the placements ${id} is at ${JSON.stringify(last?.bounds)}`);

  const d = stats(deskpilot!);
  const s = stats(shellFull);
  // setFrameBounds reads the frame right after its request, then every 10 ms: a call past 5 ms needed a second read.
  const slow = deskpilot!.filter((ms) => ms > BACKEND_POLL_MS).length;
  const ratio = s.p50 / d.p50;
  const fast = ratio >= PLACE_TARGET_RATIO;
  const applied = stats(rawApplied);
  return {
    rows: [
      {
        measure: 'place 1 window, until the WM applied it',
        deskpilot: d,
        shell: s,
        target: `${fast ? 'yes' : 'NO'} (≥${PLACE_TARGET_RATIO}x: ${fast ? 'yes' : 'no'})`,
      },
      { measure: 'place 1 window, request only', deskpilot: stats(rawRequest), shell: stats(wmctrlOnly), target: 'n/a (no target)' },
    ],
    notes: [
      `place: an xterm moved between ${JSON.stringify(RECTS[0])} (LEFT) and ${JSON.stringify(RECTS[1])} (RIGHT), every call to the other monitor. ` +
        `DeskPilot = backend.setFrameBounds: checks the id is managed, reads states (restore if needed), frame extents and size hints, ` +
        `sends _NET_MOVERESIZE_WINDOW, then reads the frame every ${BACKEND_POLL_MS} ms until it is the expected one (it waits until the WM applied the change). ` +
        `Shell = wmctrl -ir <id> -e 0,x,y,w,h (client size as granted) then xwininfo -id <id> every ${SHELL_POLL_MS} ms until the geometry differs ` +
        `from before (the before-read is untimed, which favours the shell); the first changed geometry was the final one in ${shellFirstChangeFinal}/${shellCalls}, ` +
        `${(shellPolls / Math.max(1, shellCalls)).toFixed(2)} xwininfo calls per placement on average. ` +
        `setFrameBounds saw the frame applied at its first read after the request in ${deskpilot!.length - slow}/${deskpilot!.length} calls; ` +
        `the other ${slow} waited one or more ${BACKEND_POLL_MS} ms poll intervals (hence its p95). ` +
        `N=${PLACE_N} each after ${PLACE_WARMUP} warm-up, interleaved.`,
      `place, request only: DeskPilot = one _NET_MOVERESIZE_WINDOW client message on a warm connection, resolved by the X server's reply to a sync ` +
        `(no pre-reads, no wait for the WM); shell = the wmctrl process alone. With a tight poll (no pause) after the raw request, ` +
        `openbox had applied the frame after ${fmtStats(applied)} (min ${fmtMs(applied.min)}): the floor for "until applied". ` +
        `min setFrameBounds ${fmtMs(d.min)}, min shell ${fmtMs(s.min)}.`,
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers

/**
 * Runs each entry once per iteration, rotating which goes first, and returns the timings of
 * each `run` (wall clock of the whole call). `recording(false)` during warm-up.
 */
async function interleaved(
  fns: ReadonlyArray<{ run: () => Promise<unknown> }>,
  warmup: number,
  n: number,
  recording: (on: boolean) => void = () => undefined,
): Promise<number[][]> {
  const samples: number[][] = fns.map(() => []);
  for (let k = 0; k < warmup + n; k++) {
    recording(k >= warmup);
    for (let j = 0; j < fns.length; j++) {
      const which = (k + j) % fns.length;
      const start = performance.now();
      await fns[which]!.run();
      const ms = performance.now() - start;
      if (k >= warmup) samples[which]!.push(ms);
    }
  }
  recording(false);
  return samples;
}

function tool(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: TOOL_TIMEOUT_MS }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}${stderr ? `\n${stderr}` : ''}`));
      else resolve(stdout);
    });
  });
}

interface ShellWindow {
  id: string;
  desktop: number;
  pid: number;
  x: number;
  y: number;
  w: number;
  h: number;
  wmClass: string;
  title: string;
}

/** `wmctrl -lpGx`: id, desktop, pid, x, y, w, h, instance.class, host, title. */
async function wmctrlList(env: NodeJS.ProcessEnv): Promise<ShellWindow[]> {
  const out = await tool('wmctrl', ['-lpGx'], env);
  const windows: ShellWindow[] = [];
  for (const line of out.split('\n')) {
    const m = /^(0x[0-9a-f]+)\s+(-?\d+)\s+(\d+)\s+(-?\d+)\s+(-?\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+\S+\s?(.*)$/i.exec(line);
    if (!m) continue;
    windows.push({
      id: m[1]!,
      desktop: Number(m[2]),
      pid: Number(m[3]),
      x: Number(m[4]),
      y: Number(m[5]),
      w: Number(m[6]),
      h: Number(m[7]),
      wmClass: m[8]!,
      title: m[9] ?? '',
    });
  }
  return windows;
}

/** `xrandr --listmonitors`: " 0: +*LEFT 1920/508x1080/286+0+0  screen". */
async function xrandrMonitors(env: NodeJS.ProcessEnv): Promise<Array<{ name: string; primary: boolean; bounds: Rect4 }>> {
  const out = await tool('xrandr', ['--listmonitors'], env);
  const monitors: Array<{ name: string; primary: boolean; bounds: Rect4 }> = [];
  for (const line of out.split('\n')) {
    const m = /^\s*\d+:\s+\+?(\*?)(\S+)\s+(\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/.exec(line);
    if (!m) continue;
    const [w, h, x, y] = [m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number];
    monitors.push({ name: m[2]!, primary: m[1] === '*', bounds: [x, y, x + w, y + h] });
  }
  return monitors;
}

/** `xwininfo -id`: absolute position and size of the client window. */
async function xwininfo(env: NodeJS.ProcessEnv, id: string): Promise<ClientGeom> {
  const out = await tool('xwininfo', ['-id', id], env);
  const field = (label: string) => {
    const m = new RegExp(`${label}:\\s*(-?\\d+)`).exec(out);
    if (!m) throw new Error(`xwininfo -id ${id} printed no "${label}"`);
    return Number(m[1]);
  };
  return { x: field('Absolute upper-left X'), y: field('Absolute upper-left Y'), w: field('Width'), h: field('Height') };
}

function sameGeom(a: ClientGeom, b: ClientGeom): boolean {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = APPLY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(SHELL_POLL_MS);
  }
}

/** Starts an X11 app detached (leader of its own process group) on the desktop; output ignored. */
async function spawnApp(app: string, args: string[], env: NodeJS.ProcessEnv): Promise<Spawned> {
  const child = spawn(app, args, { env, detached: true, stdio: 'ignore' });
  const spawned: Spawned = { name: app, pid: 0, child, exited: Promise.resolve(), exitStatus: null };
  spawned.exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      spawned.exitStatus = signal ? `signal ${signal}` : `code ${code}`;
      resolve();
    });
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) => reject(new Error(`cannot start ${app}: ${err.message}`)));
  });
  child.on('error', () => {});
  child.unref();
  spawned.pid = child.pid!;
  return spawned;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  if (!(pgid > 1)) return; // never signal our own group
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** SIGTERM its group, SIGKILL if it lingers; resolves once the leader has exited (or after the grace periods). */
async function stopSpawned(p: Spawned): Promise<void> {
  if (!p.pid) return;
  if (!p.exitStatus) {
    signalGroup(p.pid, 'SIGTERM');
    if (await settlesWithin(p.exited, STOP_GRACE_MS)) return;
    signalGroup(p.pid, 'SIGKILL');
    await settlesWithin(p.exited, STOP_GRACE_MS);
  }
}

/** Waits until `wmctrl -l` lists `count` managed windows; fails early if one of `watch` exits. */
async function waitForWindowCount(env: NodeJS.ProcessEnv, count: number, watch: Spawned[]): Promise<void> {
  const deadline = Date.now() + MAPPED_TIMEOUT_MS;
  for (;;) {
    const dead = watch.find((p) => p.exitStatus);
    if (dead) throw new Error(`${dead.name} (pid ${dead.pid}) exited (${dead.exitStatus}) before its window was mapped`);
    const listed = (await tool('wmctrl', ['-l'], env)).split('\n').filter((l) => l.trim()).length;
    if (listed === count) return;
    if (listed > count) throw new Error(`wmctrl -l lists ${listed} windows, expected ${count}`);
    if (Date.now() > deadline) throw new Error(`only ${listed} of ${count} windows mapped after ${MAPPED_TIMEOUT_MS} ms`);
    await sleep(50);
  }
}
