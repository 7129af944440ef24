// Windows bench, GNOME Shell: place_app and a 10-window tile (one batch of ten placements) in the warm engine (the engine
// as `deskpilot service` holds it, called in-process; the service adds only its socket hop)
// against `gdbus call` to DeskPilot's extension doing the same moves (the shell's own route for a
// script: a process, one MoveResize, which answers once the frame landed), same run, interleaved,
// on a real headless GNOME Shell 43 with two virtual monitors and ten foot windows. Figures only;
// targets are reported, never asserted.
import { performance } from 'node:perf_hooks';
import type { Rect4 } from '../src/engine/ports';
import { createGnomeWindowBackend } from '../src/platform/windows/gnome/gnome-backend';
import { frameOf, gnomeUnavailableReason, startGnome } from '../tests/support/gnome';
import { compositorTable, mustBeDone, onCompositor, roundRobin, type CompositorRow } from './compositor-bench';
import { fmtMs, machineNote, stats } from './stats';

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
  const ids: string[] = [];
  await onCompositor(
    {
      name: 'gnome',
      start: () => startGnome(),
      openWindows: async (g) => {
        for (let i = 1; i <= WINDOWS; i++) ids.push(await g.foot({ appId: `w${i}`, title: `bench ${i}` }));
      },
      backend: (env) => createGnomeWindowBackend({ env }),
    },
    async ({ session: g, desk: d, backend: b }) => {
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
    },
  );
}
