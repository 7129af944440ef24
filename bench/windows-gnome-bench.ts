// Windows bench, GNOME Shell: place_app and a 10-window tile (one batch of ten placements) in the warm engine (the engine
// as `deskpilot service` holds it, called in-process; the service adds only its socket hop)
// against `gdbus call` to DeskPilot's extension doing the same moves (the shell's own route for a
// script: a process, one MoveResize, which answers once the frame landed), same run, interleaved,
// on a real headless GNOME Shell 43 with two virtual monitors and ten foot windows. Figures only;
// targets are reported, never asserted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalDesk } from '../src/app/local-desk';
import { wireEngine } from '../src/compose/wire-engine';
import type { Rect4, WindowBackend } from '../src/engine/ports';
import { loadConfig } from '../src/platform/config/load-config';
import { createGnomeWindowBackend } from '../src/platform/windows/gnome/gnome-backend';
import { frameOf, gnomeUnavailableReason, startGnome, type GnomeSession } from '../tests/support/gnome';
import { compositorTable, mustBeDone, roundRobin, type CompositorRow } from './compositor-bench';
import { cleanUpOnInterrupt, fmtMs, machineNote, stats, waitForQuietCpu } from './stats';

const WINDOWS = 10;
const WARMUP = 4;
const N = 30;
const TILE_N = 12;
const TARGET = { place: 1.5, tile: 2 };
/** Two frames, one on each monitor (Meta-0 is 0..1920 under a 32 px top bar, Meta-1 1920..3840). */
const RECTS: readonly [Rect4, Rect4] = [
  [200, 150, 1000, 750],
  [2200, 200, 3000, 800],
];
/** Work areas: the top bar takes y 0..32 of Meta-0 only. */
const AREAS: readonly [Rect4, Rect4] = [
  [0, 32, 1920, 1080],
  [1920, 0, 3840, 1080],
];

export async function run(): Promise<void> {
  const unavailable = gnomeUnavailableReason();
  if (unavailable) {
    console.log(`Windows bench, GNOME Shell: skipped — ${unavailable}`);
    return;
  }
  const started = performance.now();
  console.log(`\nWindows bench, GNOME Shell: ${WINDOWS} foot windows on headless GNOME Shell 43 (Wayland) with two 1920x1080 virtual monitors`);
  let gnome: GnomeSession | null = null;
  let desk: LocalDesk | null = null;
  let backend: WindowBackend | null = null;
  let configDir: string | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await desk?.close().catch(() => undefined);
      await backend?.dispose().catch(() => undefined);
      await gnome?.stop();
      if (configDir) await rm(configDir, { recursive: true, force: true });
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);
  try {
    gnome = await startGnome();
    const g = gnome;
    const ids: string[] = [];
    for (let i = 1; i <= WINDOWS; i++) ids.push(await g.foot({ appId: `w${i}`, title: `bench ${i}` }));

    configDir = await mkdtemp(path.join(tmpdir(), 'deskpilot-gnome-bench-'));
    // No Chrome and no LLM: a closed loopback port fails the tab source at once.
    const env: NodeJS.ProcessEnv = { ...g.env, DESKPILOT_CONFIG_DIR: configDir, DESKPILOT_CHROME_URL: 'http://127.0.0.1:9', DESKPILOT_LLM_MODEL: '' };
    desk = new LocalDesk(await wireEngine(await loadConfig({}, env), { env }));
    backend = await createGnomeWindowBackend({ env });
    const d = desk;
    const b = backend;
    await d.snapshot({ summaries: false });
    await waitForQuietCpu();

    const gdbusMove = (id: string, [l, t, r, bt]: Rect4) => g.call('MoveResize', id, String(l), String(t), String(r - l), String(bt - t));
    const frame = async (id: string) => frameOf((await g.windows()).find((w) => w.id === id)!);

    // 1. One window, every call to the other monitor.
    const target = ids[0]!;
    let at = 1;
    const next = () => RECTS[(at = at === 0 ? 1 : 0)];
    const place = await roundRobin(
      [
        async () => mustBeDone(await d.exec({ type: 'place_app', app_name: 'w1', bounds: [...next()] })),
        () => b.setFrameBounds(target, next()),
        () => gdbusMove(target, next()),
      ],
      WARMUP,
      N,
    );
    const last = await frame(target);
    const expectedLast = RECTS[at]!;
    if (last.join() !== expectedLast.join()) throw new Error(`after the placements w1 is at ${JSON.stringify(last)}, not ${JSON.stringify(expectedLast)}`);

    // 2. Ten windows tiled side by side, alternately on each monitor's work area.
    let side = 0;
    const columns = (monitor: 0 | 1): Rect4[] => {
      const [x0, top, x1, bottom] = AREAS[monitor];
      const w = (x1 - x0) / WINDOWS;
      return ids.map((_, i) => [Math.round(x0 + i * w), top, Math.round(x0 + (i + 1) * w), bottom] as Rect4);
    };
    const tile = await roundRobin(
      [
        async () => {
          side = 1 - side;
          // tile_apps takes at most 6 apps: ten columns are one batch of ten place_app commands.
          const frames = columns(side as 0 | 1);
          mustBeDone(await d.exec(ids.map((_, i) => ({ type: 'place_app', app_name: `w${i + 1}`, bounds: [...frames[i]!] }))));
        },
        async () => {
          side = 1 - side;
          const frames = columns(side as 0 | 1);
          for (const [i, id] of ids.entries()) await gdbusMove(id, frames[i]!);
        },
      ],
      2,
      TILE_N,
    );
    const tiled = await Promise.all(ids.map(frame));
    const expected = columns(side as 0 | 1);
    if (tiled.some((f, i) => f.join() !== expected[i]!.join())) throw new Error(`after tiling the windows are at ${JSON.stringify(tiled)}, not ${JSON.stringify(expected)}`);

    const rows: CompositorRow[] = [
      ['place 1 window (place_app, warm engine)', stats(place[0]!), stats(place[2]!), TARGET.place],
      ['  the backend alone (setFrameBounds)', stats(place[1]!), stats(place[2]!), TARGET.place],
      [`tile ${WINDOWS} windows (one batch of ${WINDOWS} place_app, warm engine)`, stats(tile[0]!), stats(tile[1]!), TARGET.tile],
    ];
    console.log('');
    console.log(compositorTable('gdbus', rows));
    console.log('');
    console.log(
      `place: w1 moved between ${JSON.stringify(RECTS[0])} (Meta-0) and ${JSON.stringify(RECTS[1])} (Meta-1), every call to the other monitor. ` +
        'DeskPilot = desk.exec of a place_app envelope on the warm engine: validate, a fresh snapshot (List and Monitors over the warm bus connection; the tab source fails at once), ' +
        'resolve, then MoveResize (the extension answers once the frame landed), raise/focus, the undo entry and the history line written. ' +
        `gdbus = one \`gdbus call --session -d org.deskpilot.Windows1 … MoveResize ID X Y W H\` process. N=${N} each after ${WARMUP} warm-up, interleaved.`,
    );
    console.log(
      `tile: one batch of ${WINDOWS} place_app commands (tile_apps takes at most 6 apps), ten columns alternately on the left and right monitor's work area (one snapshot, ten placements, each raised, the last focused) ` +
        `vs ${WINDOWS} gdbus processes one after the other, one per column. N=${TILE_N} each after 2 warm-up, interleaved.`,
    );
    console.log(`machine: ${machineNote()}; bench total ${fmtMs(performance.now() - started)}`);
  } finally {
    await cleanup();
    uninstall();
  }
}
