// Chrome bench: DeskPilot's CDP path against the DevTools HTTP endpoints a script would use,
// with 100 real tabs (60 + 40 in two windows) in a headful Chromium on a real Xvfb desktop.
// It prints figures only; the targets are reported as met or not, never asserted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../src/engine/engine';
import { createLocalPlanner } from '../src/engine/local-planner';
import { TurnFileStore } from '../src/platform/storage/turn-file';
import type { ContextSnapshot } from '../src/protocol/context';
import type { ExecReport } from '../src/protocol/report';
import { createCdpChromeBackend, type CdpChromeBackend } from '../src/platform/chrome/cdp-backend';
import { loadDeviceId } from '../src/platform/storage/device-id';
import { HistoryFile } from '../src/platform/storage/history-file';
import { PresetFileStore } from '../src/platform/storage/preset-file';
import { UndoFileStore } from '../src/platform/storage/undo-file';
import { startDesktop, type Desktop } from '../tests/support/desktop';
import { JsonEndpoints } from './http-json';
import { fmtMs, fmtRatio, fmtStats, formatTable, machineNote, sleep, stats, timeMs, waitForQuietCpu, type Stats, cleanUpOnInterrupt } from './stats';
import { TabFixture } from './tab-fixture';

const WINDOW_SIZES = [60, 40] as const;
const TOTAL_TABS = WINDOW_SIZES[0] + WINDOW_SIZES[1];
const SNAPSHOT_WARMUP = 5;
const SNAPSHOT_N = 50;
const SWITCH_WARMUP = 5;
const SWITCH_N = 40;
const CLOSE_ROUNDS = 5;
/** Least pause after (re)opening tabs; then the bench waits for the CPU to go quiet (page loads, paints). */
const SETTLE_MS = 200;
const SNAPSHOT_TARGET_MS = 30;
const SNAPSHOT_TARGET_RATIO = 5;
/** Same poll interval as DeskPilot's closeTabs, so both sides notice the tabs leaving alike. */
const HTTP_CLOSE_POLL_MS = 25;
const HTTP_CLOSE_TIMEOUT_MS = 10_000;

// The app catalog is not part of the Chrome measure: an empty one (no .desktop scan per snapshot).
const NO_APPS = { list: async () => [], launch: async () => ({ pid: null }) };

interface Row {
  measure: string;
  deskpilot: Stats | null;
  http: Stats | null;
  target: string;
  /** Printed under the table. */
  note?: string;
}

interface Ctx {
  desk: Desktop;
  fixture: TabFixture;
  backend: CdpChromeBackend;
  engine: Engine;
  http: JsonEndpoints;
}

export async function run(): Promise<void> {
  const started = performance.now();
  console.log(`Chrome bench: ${TOTAL_TABS} tabs (${WINDOW_SIZES.join(' + ')} in 2 windows), headful Chromium under Xvfb`);

  let desk: Desktop | null = null;
  let fixture: TabFixture | null = null;
  let backend: CdpChromeBackend | null = null;
  let configDir: string | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await backend?.dispose().catch(() => undefined);
      await fixture?.dispose().catch(() => undefined);
      await desk?.stop();
      if (configDir) await rm(configDir, { recursive: true, force: true });
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);

  try {
    const t0 = performance.now();
    desk = await startDesktop();
    const chrome = desk.chrome!;
    const desktopUpMs = performance.now() - t0;

    configDir = await mkdtemp(path.join(tmpdir(), 'deskpilot-bench-'));
    fixture = await TabFixture.connect(chrome.browserWsUrl);
    const t1 = performance.now();
    const specs = Array.from({ length: TOTAL_TABS }, (_, i) => {
      const title = `Bench tab ${i + 1}`;
      return { title, url: desk!.pages.url('page', { title, text: `Tab ${i + 1} of the DeskPilot benchmark.` }) };
    });
    await fixture.openInTwoWindows(specs, WINDOW_SIZES[0]);
    const tabsUpMs = performance.now() - t1;
    await settle();

    backend = createCdpChromeBackend({
      chromeUrl: chrome.browserWsUrl,
      profileDir: path.join(configDir, 'chrome-profile'),
      defaultUserDataDirs: [],
    });
    const chromeBackend = backend;
    const engine = new Engine({
      chrome: async () => chromeBackend,
      // Wired like wire-engine, minus the window backend and app catalog: the measures are the Chrome part.
      windows: null,
      apps: NO_APPS,
      presets: new PresetFileStore(path.join(configDir, 'presets.json')),
      undo: new UndoFileStore(path.join(configDir, 'undo.json')),
      history: new HistoryFile(path.join(configDir, 'history.jsonl')),
      deviceId: await loadDeviceId(configDir),
      planners: { local: createLocalPlanner(), llm: null, llmMissingReason: 'not used by this bench' },
      answerer: null,
      turns: new TurnFileStore(path.join(configDir, 'turns.json')),
    });
    const ctx: Ctx = { desk, fixture, backend, engine, http: new JsonEndpoints(`http://127.0.0.1:${chrome.port}`) };

    let cold!: ContextSnapshot;
    const coldMs = await timeMs(async () => (cold = await engine.snapshot({ summaries: false })));
    checkLayout(cold);

    const rows: Row[] = [];
    rows.push(await benchSnapshot(ctx));
    rows.push(...(await benchSwitch(ctx)));
    rows.push(await benchClose(ctx));

    console.log('');
    console.log(
      formatTable([
        ['measure', 'DeskPilot p50 (p95)', 'HTTP /json p50 (p95)', 'ratio', 'target met?'],
        ...rows.map((r) => [
          r.measure,
          fmtStats(r.deskpilot),
          fmtStats(r.http),
          r.deskpilot && r.http ? fmtRatio(r.http.p50 / r.deskpilot.p50) : '—',
          r.target,
        ]),
      ]),
    );
    console.log('');
    console.log('ratio = HTTP p50 / DeskPilot p50. HTTP = node http.get with a fresh connection per request (no keep-alive).');
    console.log(
      `snapshot: engine.snapshot({summaries:false}) = listTabs (tab + page targets, cached tab→page map, window of each tab) + describe() (cached); ` +
        `N=${SNAPSHOT_N} each after ${SNAPSHOT_WARMUP} warm-up, interleaved; cold first snapshot incl. connect ${fmtMs(coldMs)}. ` +
        `HTTP: GET /json/list + JSON.parse + filter to pages (gives no window or tab-strip order).`,
    );
    for (const r of rows) if (r.note) console.log(r.note);
    console.log(
      `switch_tab: engine.exec with a pre-taken snapshot (validate, resolve, Target.activateTarget, history append); ` +
        `raw = backend.activateTab; HTTP = GET /json/activate/<id>. N=${SWITCH_N} each, interleaved, a different tab every call.`,
    );
    console.log(
      `close 50: engine.exec close_tab with a pre-taken snapshot (50 × Target.closeTarget in parallel, then polls every 25 ms until gone, history append); ` +
        `HTTP = 50 sequential GET /json/close/<id>, then GET /json/list every ${HTTP_CLOSE_POLL_MS} ms until none is listed. ` +
        `${CLOSE_ROUNDS} rounds each, alternating, 50 tabs re-opened between rounds (untimed, then waits for an idle CPU); p95 = max of ${CLOSE_ROUNDS}.`,
    );
    const version = (await fixture.version()).replace('/', ' ');
    console.log(
      `machine: ${machineNote([version, `desktop up ${fmtMs(desktopUpMs)}`, `${TOTAL_TABS} tabs opened in ${fmtMs(tabsUpMs)}`])}; ` +
        `bench total ${fmtMs(performance.now() - started)}`,
    );
  } finally {
    await cleanup();
    uninstall();
  }
}

// ---------------------------------------------------------------------------------------------
// Fixture

async function settle(): Promise<void> {
  await sleep(SETTLE_MS);
  await waitForQuietCpu();
}

/** The engine must see exactly the fixture: 100 tabs, 60 in window 1 and 40 in window 2. */
function checkLayout(snap: ContextSnapshot): void {
  if (!snap.sources.chrome.ok) throw new Error(`the engine cannot see Chrome: ${snap.sources.chrome.message}`);
  const perWindow = [1, 2].map((w) => snap.tabs.filter((t) => t.window_index === w).length);
  if (snap.tabs.length !== TOTAL_TABS || perWindow[0] !== WINDOW_SIZES[0] || perWindow[1] !== WINDOW_SIZES[1]) {
    throw new Error(`expected ${WINDOW_SIZES.join(' + ')} tabs, the engine sees ${snap.tabs.length} (${perWindow.join(' + ')})`);
  }
}

function expectDone(report: ExecReport, what: string): ExecReport {
  if (report.status !== 'done') {
    const why = [...report.errors.map((e) => e.message), ...report.results.filter((r) => !r.ok).map((r) => r.message)].join('; ');
    throw new Error(`${what} ended ${report.status}: ${why}`);
  }
  return report;
}

/** Runs each of `fns` once per iteration, rotating which goes first, and returns their timings. */
async function interleaved(fns: ReadonlyArray<() => Promise<unknown>>, warmup: number, n: number): Promise<number[][]> {
  const samples: number[][] = fns.map(() => []);
  for (let k = 0; k < warmup + n; k++) {
    for (let j = 0; j < fns.length; j++) {
      const which = (k + j) % fns.length;
      const ms = await timeMs(fns[which]!);
      if (k >= warmup) samples[which]!.push(ms);
    }
  }
  return samples;
}

// ---------------------------------------------------------------------------------------------
// 1. Context snapshot

async function benchSnapshot(ctx: Ctx): Promise<Row> {
  const [deskpilot, http, listTabs, bare] = await interleaved(
    [
      async () => {
        const snap = await ctx.engine.snapshot({ summaries: false });
        if (snap.tabs.length !== TOTAL_TABS) throw new Error(`snapshot saw ${snap.tabs.length} tabs`);
      },
      async () => {
        const tabs = await ctx.http.list();
        if (tabs.length !== TOTAL_TABS) throw new Error(`/json/list showed ${tabs.length} tabs`);
      },
      // For the breakdown only: the backend's part, and the bare CDP round trips it is built on.
      () => ctx.backend.listTabs(),
      () => ctx.fixture.bareListing(),
    ],
    SNAPSHOT_WARMUP,
    SNAPSHOT_N,
  );
  const d = stats(deskpilot!);
  const h = stats(http!);
  const ratio = h.p50 / d.p50;
  const underTarget = d.p50 < SNAPSHOT_TARGET_MS;
  const fastEnough = ratio >= SNAPSHOT_TARGET_RATIO;
  const target =
    `${underTarget && fastEnough ? 'yes' : 'NO'} (<${SNAPSHOT_TARGET_MS} ms: ${underTarget ? 'yes' : 'no'}, ` +
    `≥${SNAPSHOT_TARGET_RATIO}x: ${fastEnough ? 'yes' : 'no'})`;
  const note =
    `snapshot breakdown (p50): backend.listTabs ${fmtMs(stats(listTabs!).p50)}; bare CDP floor over one websocket ` +
    `(2 × Target.getTargets + ${TOTAL_TABS} × Browser.getWindowForTarget in parallel) ${fmtMs(stats(bare!).p50)}; ` +
    `min DeskPilot ${fmtMs(d.min)}, min HTTP ${fmtMs(h.min)}.`;
  return { measure: `snapshot, ${TOTAL_TABS} tabs, warm, no summaries`, deskpilot: d, http: h, target, note };
}

// ---------------------------------------------------------------------------------------------
// 2. switch_tab

async function benchSwitch(ctx: Ctx): Promise<Row[]> {
  const snap = await ctx.engine.snapshot({ summaries: false });
  checkLayout(snap);
  // A seeded walk over the tabs, never the same tab twice in a row (across all three methods),
  // so every call really switches; it mixes same-window and cross-window switches.
  let seed = 0x2545f491;
  let previous = 0;
  const nextIndex = () => {
    for (;;) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const index = 1 + ((seed >>> 8) % TOTAL_TABS);
      if (index !== previous) return (previous = index);
    }
  };
  const idOf = (index: number) => snap.tabs[index - 1]!.target_id;

  const [viaEngine, viaBackend, viaHttp] = await interleaved(
    [
      async () => expectDone(await ctx.engine.exec({ type: 'switch_tab', tab_index: nextIndex() }, { snapshot: snap }), 'switch_tab'),
      () => ctx.backend.activateTab(idOf(nextIndex())),
      () => ctx.http.activate(idOf(nextIndex())),
    ],
    SWITCH_WARMUP,
    SWITCH_N,
  );
  const h = stats(viaHttp!);
  return [
    { measure: 'switch_tab (engine.exec, pre-taken snapshot)', deskpilot: stats(viaEngine!), http: h, target: 'n/a (no target)' },
    { measure: 'switch_tab (raw backend.activateTab)', deskpilot: stats(viaBackend!), http: h, target: 'n/a (no target)' },
  ];
}

// ---------------------------------------------------------------------------------------------
// 3. Closing 50 tabs

async function benchClose(ctx: Ctx): Promise<Row> {
  const deskpilot: number[] = [];
  const http: number[] = [];
  for (let round = 0; round < CLOSE_ROUNDS * 2; round++) {
    // Alternate who goes first, so neither side always meets the browser right after a re-open.
    const viaEngine = (round % 2 === 0) === (Math.floor(round / 2) % 2 === 0);
    const snap = await ctx.engine.snapshot({ summaries: false });
    checkLayout(snap);
    // Every other tab: 30 from window 1 and 20 from window 2.
    const victims = snap.tabs.filter((t) => t.index % 2 === 1);
    const keep = snap.tabs.filter((t) => t.index % 2 === 0);
    const ids = new Set(victims.map((t) => t.target_id));

    if (viaEngine) {
      let report!: ExecReport;
      deskpilot.push(
        await timeMs(async () => {
          report = await ctx.engine.exec({ type: 'close_tab', tab_indices: victims.map((t) => t.index) }, { snapshot: snap });
        }),
      );
      expectDone(report, 'close_tab');
      const closed = (report.results[0]?.data as { closed?: unknown[] } | undefined)?.closed?.length;
      if (closed !== victims.length) throw new Error(`close_tab closed ${closed} of ${victims.length} tabs`);
    } else {
      http.push(
        await timeMs(async () => {
          for (const id of ids) await ctx.http.close(id);
          const deadline = Date.now() + HTTP_CLOSE_TIMEOUT_MS;
          while ((await ctx.http.list()).some((t) => ids.has(t.targetId))) {
            if (Date.now() > deadline) throw new Error('tabs closed over HTTP were still listed after 10 s');
            await sleep(HTTP_CLOSE_POLL_MS);
          }
        }),
      );
    }

    // Put the 50 back where they were (30 in window 1, 20 in window 2); untimed.
    const left = await ctx.fixture.pages();
    if (left.length !== keep.length || left.some((p) => ids.has(p.targetId))) {
      throw new Error(`after closing, ${left.length} tabs are open (expected ${keep.length})`);
    }
    for (const w of [1, 2]) {
      const anchor = keep.find((t) => t.window_index === w)!;
      const again = victims.filter((t) => t.window_index === w).map((t) => ({ url: t.url, title: t.title }));
      await ctx.fixture.openIn(anchor.target_id, again);
    }
    await settle();
  }
  return { measure: 'close 50 of 100 tabs, until gone', deskpilot: stats(deskpilot), http: stats(http), target: 'n/a (no target)' };
}
