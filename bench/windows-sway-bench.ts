// Windows bench, sway: place_app and a 10-window tile_apps in the warm engine (the engine as
// `deskpilot service` holds it, called in-process; the service adds only its socket hop) against
// swaymsg doing the same moves, same run, interleaved, on a real headless sway with two outputs
// and ten foot windows. Figures only; targets are reported, never asserted.
import { performance } from 'node:perf_hooks';
import type { Rect4 } from '../src/engine/ports';
import { createSwayWindowBackend } from '../src/platform/windows/sway/sway-backend';
import { runTool } from '../tests/support/desktop';
import { findCon, frameOfCon, startSway, swayUnavailableReason } from '../tests/support/sway';
import { compositorTable, mustBeDone, onCompositor, roundRobin, type CompositorRow } from './compositor-bench';
import { fmtMs, machineNote, stats } from './stats';

const WINDOWS = 10;
const WARMUP = 4;
const N = 30;
const TILE_N = 12;
const TARGET = { place: 1.5, tile: 2 };
/** Two frames, one on each output (HEADLESS-1 is 0..1920, HEADLESS-2 1920..3840; work areas start at y=23). */
const RECTS: readonly [Rect4, Rect4] = [
  [200, 150, 1000, 750],
  [2200, 200, 3000, 800],
];

export async function run(): Promise<void> {
  const unavailable = swayUnavailableReason();
  if (unavailable) {
    console.log(`Windows bench, sway: skipped — ${unavailable}`);
    return;
  }
  const started = performance.now();
  console.log(`\nWindows bench, sway: ${WINDOWS} foot windows on headless sway with two 1920x1080 outputs`);
  // The processes stopped at the end are unref'd: without this a failure would let Node exit mid-cleanup, unsaid.
  const keepAlive = setInterval(() => undefined, 1000);
  const ids: number[] = [];
  try {
    await onCompositor(
      {
        name: 'sway',
        start: () => startSway(),
        openWindows: async (s) => {
          for (let i = 1; i <= WINDOWS; i++) ids.push(await s.foot({ appId: `w${i}`, title: `bench ${i}` }));
          // Every window floating from the start: the steady state after a first placement.
          for (const [i, id] of ids.entries()) s.command(`[con_id=${id}] floating enable, resize set 600 400, move absolute position ${40 * i} ${60 + 40 * i}`);
        },
        backend: (env) => createSwayWindowBackend({ env }),
      },
      async ({ session: s, desk: d, backend: b, env }) => {
        const swaymsg = (command: string) => runTool('swaymsg', ['-s', s.socket, command], env);
        const placeCmd = (id: number, [l, t, r, bt]: Rect4) =>
          `[con_id=${id}] floating enable, resize set width ${r - l} px height ${bt - t} px, move absolute position ${l} px ${t} px`;
        const frame = (id: number) => frameOfCon(findCon(s.msg('get_tree'), (n) => n.id === id)!);

        // 1. One window, every call to the other output.
        const target = ids[0]!;
        let at: 0 | 1 = 1;
        const next = () => RECTS[(at = at === 0 ? 1 : 0)];
        const place = await roundRobin(
          [
            async () => mustBeDone(await d.exec({ type: 'place_app', app_name: 'w1', bounds: [...next()] })),
            () => b.setFrameBounds(String(target), next()),
            () => swaymsg(placeCmd(target, next())),
          ],
          WARMUP,
          N,
        );
        const last = frame(target);
        if (!sameRect(last, RECTS[at])) throw new Error(`after the placements w1 is at ${JSON.stringify(last)}, not ${JSON.stringify(RECTS[at])}`);

        // 2. Ten windows tiled side by side, alternately on each output.
        let side = 0;
        const columns = (monitor: number): Rect4[] => {
          const [x0, x1] = monitor === 0 ? [0, 1920] : [1920, 3840];
          const w = (x1 - x0) / WINDOWS;
          return ids.map((_, i) => [Math.round(x0 + i * w), 23, Math.round(x0 + (i + 1) * w), 1080] as Rect4);
        };
        const tile = await roundRobin(
          [
            async () => {
              side = 1 - side;
              // tile_apps takes at most 6 apps: ten columns are one batch of ten place_app commands.
              const frames = columns(side);
              mustBeDone(await d.exec(ids.map((_, i) => ({ type: 'place_app', app_name: `w${i + 1}`, bounds: [...frames[i]!] }))));
            },
            async () => {
              side = 1 - side;
              const frames = columns(side);
              for (const [i, id] of ids.entries()) await swaymsg(placeCmd(id, frames[i]!));
            },
          ],
          2,
          TILE_N,
        );
        const tiled = ids.map(frame);
        const expected = columns(side);
        if (!tiled.every((f, i) => sameRect(f, expected[i]!))) throw new Error(`after tiling the windows are at ${JSON.stringify(tiled)}, not ${JSON.stringify(expected)}`);

        const rows: CompositorRow[] = [
          ['place 1 window (place_app, warm engine)', stats(place[0]!), stats(place[2]!), TARGET.place],
          ['  the backend alone (setFrameBounds)', stats(place[1]!), stats(place[2]!), TARGET.place],
          [`tile ${WINDOWS} windows (one batch, warm engine)`, stats(tile[0]!), stats(tile[1]!), TARGET.tile],
        ];
        console.log('');
        console.log(compositorTable('swaymsg', rows));
        console.log('');
        console.log(
          `place: w1 moved between ${JSON.stringify(RECTS[0])} (HEADLESS-1) and ${JSON.stringify(RECTS[1])} (HEADLESS-2), every call to the other output. ` +
            'DeskPilot = desk.exec of a place_app envelope on the warm engine: validate, a fresh snapshot (windows, monitors, apps, presets; the tab source fails at once), ' +
            'resolve, then the backend (tree read, one RUN_COMMAND, tree reads until the frame is the one asked for), raise/focus the placed window, the undo entry and the history line written. ' +
            `swaymsg = one \`swaymsg -s SOCK '[con_id=N] floating enable, resize set …, move absolute position …'\` process (sway answers once its tree holds the change). N=${N} each after ${WARMUP} warm-up, interleaved.`,
        );
        console.log(
          `tile: ${WINDOWS} columns, alternately on the left and right output, as one batch of ${WINDOWS} place_app commands (tile_apps takes at most 6 apps): ` +
            'one validation and snapshot, ten placements, each raised, the last focused, one undo entry; ' +
            `vs ${WINDOWS} swaymsg processes one after the other, one per column. N=${TILE_N} each after 2 warm-up, interleaved.`,
        );
        console.log(`machine: ${machineNote()}; bench total ${fmtMs(performance.now() - started)}`);
      },
    );
  } finally {
    clearInterval(keepAlive);
  }
}

const sameRect = (a: readonly number[], b: readonly number[]) => a.every((v, i) => v === b[i]);
