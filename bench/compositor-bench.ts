// What the window benches of the Wayland compositors (sway, KWin, GNOME Shell) share: each
// measures the warm engine against the compositor's own command-line route, interleaved, and
// prints one table of ratios against the targets. Figures only; nothing is asserted.
import { performance } from 'node:perf_hooks';
import { fmtRatio, fmtStats, formatTable, type Stats } from './stats';

/** DeskPilot's figure, the native tool's, and the largest DeskPilot ÷ tool ratio the target allows. */
export type CompositorRow = [measure: string, deskpilot: Stats, tool: Stats, target: number];

/** The table: ratio = DeskPilot p50 ÷ tool p50, "yes" when it is within the target. */
export function compositorTable(tool: string, rows: readonly CompositorRow[]): string {
  return formatTable([
    ['measure', 'DeskPilot p50 (p95)', `${tool} p50 (p95)`, `DeskPilot ÷ ${tool}`, 'target met?'],
    ...rows.map(([measure, dp, sh, t]) => {
      const ratio = dp.p50 / sh.p50;
      return [measure, fmtStats(dp), fmtStats(sh), fmtRatio(ratio), `${ratio <= t ? 'yes' : 'NO'} (≤${t}x)`];
    }),
  ]);
}

/** Throws unless the engine's report says every command of the batch was done. */
export function mustBeDone(report: { status: string; errors: Array<{ message: string }>; results?: Array<{ ok: boolean; message: string }> }): void {
  const bad = report.results?.find((r) => !r.ok);
  if (report.status === 'done' && !bad) return;
  throw new Error(`the batch ended ${report.status}: ${[...report.errors.map((e) => e.message), bad?.message].filter(Boolean).join('; ')}`);
}

/** Each function once per round, the first one rotating; the timings of each after the warm-up rounds. */
export async function roundRobin(fns: ReadonlyArray<() => Promise<unknown>>, warmup: number, n: number): Promise<number[][]> {
  const timings: number[][] = fns.map(() => []);
  for (let round = 0; round < warmup + n; round++) {
    for (let k = 0; k < fns.length; k++) {
      const i = (round + k) % fns.length;
      const start = performance.now();
      await fns[i]!();
      if (round >= warmup) timings[i]!.push(performance.now() - start);
    }
  }
  return timings;
}
