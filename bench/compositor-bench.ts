// What the window benches of the Wayland compositors (sway, KWin, GNOME Shell) share: each
// measures the warm engine against the compositor's own command-line route, interleaved, and
// prints one table of ratios against the targets. Figures only; nothing is asserted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalDesk } from '../src/app/local-desk';
import { wireEngine } from '../src/compose/wire-engine';
import type { WindowBackend } from '../src/engine/ports';
import { loadConfig } from '../src/platform/config/load-config';
import { cleanUpOnInterrupt, fmtRatio, fmtStats, formatTable, waitForQuietCpu, type Stats } from './stats';

/** What a compositor bench runs on: the session, the warm engine on it, and the backend alone. */
export interface CompositorRig<S> {
  session: S;
  desk: LocalDesk;
  backend: WindowBackend;
  env: NodeJS.ProcessEnv;
}

/**
 * Starts the compositor session, opens its windows, wires the warm engine (no Chrome, no LLM: a
 * closed loopback port fails the tab source at once) and the backend alone, waits for a quiet
 * CPU, runs `body`, and takes everything down again — also on Ctrl-C.
 */
export async function onCompositor<S extends { env: NodeJS.ProcessEnv; stop(): Promise<void> }>(
  opts: { name: string; start: () => Promise<S>; openWindows: (session: S) => Promise<void>; backend: (env: NodeJS.ProcessEnv) => WindowBackend | Promise<WindowBackend> },
  body: (rig: CompositorRig<S>) => Promise<void>,
): Promise<void> {
  let session: S | null = null;
  let desk: LocalDesk | null = null;
  let backend: WindowBackend | null = null;
  let configDir: string | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await desk?.close().catch(() => undefined);
      await backend?.dispose().catch(() => undefined);
      await session?.stop();
      if (configDir) await rm(configDir, { recursive: true, force: true });
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);
  try {
    session = await opts.start();
    await opts.openWindows(session);
    configDir = await mkdtemp(path.join(tmpdir(), `deskpilot-${opts.name}-bench-`));
    const env: NodeJS.ProcessEnv = { ...session.env, DESKPILOT_CONFIG_DIR: configDir, DESKPILOT_CHROME_URL: 'http://127.0.0.1:9', DESKPILOT_LLM_MODEL: '' };
    desk = new LocalDesk(await wireEngine(await loadConfig({}, env), { env }));
    backend = await opts.backend(env);
    await desk.snapshot({ summaries: false });
    await waitForQuietCpu();
    await body({ session, desk, backend, env });
  } finally {
    await cleanup();
    uninstall();
  }
}

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
