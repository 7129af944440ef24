// Windows bench, KWin: place_app and a 10-window tile_apps in the warm engine (the engine as
// `deskpilot service` holds it, called in-process; the service adds only its socket hop) against
// `gdbus` doing the same script-driven move (loadScript, run, unloadScript, then getWindowInfo
// until KWin holds the frame), same run, interleaved, on a real KWin 5.27 with two virtual
// outputs and ten GTK 3 windows. Figures only; targets are reported, never asserted.
import { performance } from 'node:perf_hooks';
import type { Rect4 } from '../src/engine/ports';
import { createKwinWindowBackend } from '../src/platform/windows/kwin';
import { kwinSessionUnavailableReason, startKwinSession } from '../tests/support/kwin';
import { compositorTable, mustBeDone, onCompositor, roundRobin, type CompositorRow } from './compositor-bench';
import { fmtMs, machineNote, stats } from './stats';

const WINDOWS = 10;
const WARMUP = 4;
const N = 30;
const TILE_N = 8;
const TARGET = { place: 1.5, tile: 2 };
/** Two frames, one on each output (Virtual-0 is 0..1920, Virtual-1 1920..3840; no panels). */
const RECTS: readonly [Rect4, Rect4] = [
  [200, 150, 1000, 750],
  [2200, 200, 3000, 800],
];
const APPLY_TIMEOUT_MS = 5_000;

export async function run(): Promise<void> {
  const unavailable = kwinSessionUnavailableReason();
  if (unavailable) {
    console.log(`Windows bench, KWin: skipped — ${unavailable}`);
    return;
  }
  const started = performance.now();
  console.log(`\nWindows bench, KWin: ${WINDOWS} GTK 3 windows on KWin 5.27 (kwin_wayland --virtual) with two 1920x1080 outputs`);
  const ids: string[] = [];
  await onCompositor(
    {
      name: 'kwin',
      start: startKwinSession,
      openWindows: async (k) => {
        for (let i = 1; i <= WINDOWS; i++) ids.push((await k.startGtkWindow(`bench ${i}`, `w${i}`)).id);
      },
      backend: (env) => createKwinWindowBackend({ env }),
    },
    async ({ session: k, desk: d, backend: b }) => {
      // What a script author does with KWin's documented D-Bus API and gdbus, one process per call.
      const nativeMove = async (id: string, [l, t, r, bt]: Rect4) => {
        await k.runScriptWithGdbus(
          `var id = ${JSON.stringify(id)}; var list = workspace.clientList();\n` +
            `for (var i = 0; i < list.length; i++) if (String(list[i].internalId) === id) list[i].frameGeometry = { x: ${l}, y: ${t}, width: ${r - l}, height: ${bt - t} };`,
        );
        const deadline = Date.now() + APPLY_TIMEOUT_MS;
        while (!sameRect((await k.windowInfo(id)).rect, [l, t, r, bt])) {
          if (Date.now() > deadline) throw new Error(`KWin did not apply the gdbus move of ${id} within ${APPLY_TIMEOUT_MS} ms`);
        }
      };

      // 1. One window, every call to the other output.
      const target = ids[0]!;
      let at = 1;
      const next = () => RECTS[(at = at === 0 ? 1 : 0)];
      const place = await roundRobin(
        [
          async () => mustBeDone(await d.exec({ type: 'place_app', app_name: 'w1', bounds: [...next()] })),
          () => b.setFrameBounds(target, next()),
          () => nativeMove(target, next()),
        ],
        WARMUP,
        N,
      );
      const last = (await k.windowInfo(target)).rect;
      if (!sameRect(last, RECTS[at]!)) throw new Error(`after the placements w1 is at ${JSON.stringify(last)}, not ${JSON.stringify(RECTS[at])}`);

      // 2. Ten windows tiled side by side, alternately on each output.
      let side = 0;
      const columns = (monitor: number): Rect4[] => {
        const [x0, x1] = monitor === 0 ? [0, 1920] : [1920, 3840];
        const w = (x1 - x0) / WINDOWS;
        return ids.map((_, i) => [Math.round(x0 + i * w), 0, Math.round(x0 + (i + 1) * w), 1080] as Rect4);
      };
      const tile = await roundRobin(
        [
          async () => {
            side = 1 - side;
            // tile_apps takes at most 6 apps: ten columns are one batch of ten place_app commands.
            const frames = columns(side);
            const commands = ids.map((_, i) => ({ type: 'place_app', app_name: `w${i + 1}`, bounds: [...frames[i]!] }));
            mustBeDone(await d.exec({ commands, needs_clarification: false }));
          },
          async () => {
            side = 1 - side;
            const frames = columns(side);
            for (const [i, id] of ids.entries()) await nativeMove(id, frames[i]!);
          },
        ],
        1,
        TILE_N,
      );
      const tiled = await Promise.all(ids.map(async (id) => (await k.windowInfo(id)).rect));
      const expected = columns(side);
      if (!tiled.every((f, i) => sameRect(f, expected[i]!))) throw new Error(`after tiling the windows are at ${JSON.stringify(tiled)}, not ${JSON.stringify(expected)}`);

      const rows: CompositorRow[] = [
        ['place 1 window (place_app, warm engine)', stats(place[0]!), stats(place[2]!), TARGET.place],
        ['  the backend alone (setFrameBounds)', stats(place[1]!), stats(place[2]!), TARGET.place],
        [`tile ${WINDOWS} windows (one batch, warm engine)`, stats(tile[0]!), stats(tile[1]!), TARGET.tile],
      ];
      console.log('');
      console.log(compositorTable('gdbus', rows));
      console.log('');
      console.log(
        `place: w1 moved between ${JSON.stringify(RECTS[0])} (Virtual-0) and ${JSON.stringify(RECTS[1])} (Virtual-1), every call to the other output. ` +
          'DeskPilot = desk.exec of a place_app envelope on the warm engine: validate, a fresh snapshot (one KWin script for windows and screens; the tab source fails at once), ' +
          'resolve, then the backend (one script sets frameGeometry, scripts read it back until it is the frame asked for), raise/focus, the undo entry and the history line written. ' +
          'gdbus = the same move the documented way: write the script, `gdbus call … loadScript`, `… Script.run`, `… unloadScript` (three processes), then ' +
          `\`gdbus call … org.kde.KWin.getWindowInfo\` until KWin holds the frame (KWin applies it once the client acks). N=${N} each after ${WARMUP} warm-up, interleaved.`,
      );
      console.log(
        `tile: one envelope of ${WINDOWS} place_app commands (tile_apps takes at most 6 apps), ${WINDOWS} equal columns alternately on the left and right output (one batch: one snapshot, ten placements, each raised) ` +
          `vs ${WINDOWS} gdbus moves one after the other, one per column. N=${TILE_N} each after 1 warm-up, interleaved.`,
      );
      console.log(`machine: ${machineNote()}; bench total ${fmtMs(performance.now() - started)}`);
    },
  );
}

const sameRect = (a: readonly number[], b: readonly number[]) => a.every((v, i) => v === b[i]);
