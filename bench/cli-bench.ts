// CLI bench: what one `deskpilot` call costs as a whole process, side by side in one run with a
// bare `node -e ''`: the CLI with no service (cold: it composes an engine in its own process),
// the CLI while `deskpilot service` runs (warm: the thin client hands the whole command to the
// service and relays its output), and the in-service path (the engine as the service holds it —
// its tab list kept from Chrome's events — called directly, no process start). Then the warm
// 100-tab snapshot against `curl /json/list`, and a one-tab command at 10, 100 and 300 tabs.
// On a real Xvfb desktop with a headful Chromium and an xterm. Figures only: targets are
// reported, never asserted. DESKPILOT_BENCH_CLI_N sets the samples per figure (default 10).
// Cold calls start from the code cache of their command and from what the chrome-run folder keeps
// about the running Chrome, as every cold call after a user's first does; the very first cold
// calls, without either, are reported on their own line.
// The CLI is a build of its own (other work in the tree may rebuild out/cli meanwhile, and a
// thin client hands commands only to a service of its own build); every warm run is checked
// to have been run by the service, so a fallback is never timed as the fast path.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalDesk } from '../src/app/local-desk';
import { RemoteDesk } from '../src/app/remote-desk';
import { loadConfig } from '../src/platform/config/load-config';
import { connectService } from '../src/platform/service/socket-client';
import { serviceSocketPath } from '../src/platform/service/socket-path';
import { serviceArgv } from '../src/platform/service/unit-files';
import { wireEngine } from '../src/compose/wire-engine';
import type { ChromeBackend } from '../src/engine/ports';
import { httpGet } from './http-json';
import { startDesktop, type Desktop } from '../tests/support/desktop';
import { buildPrivateCli, type PrivateCli } from '../tests/service/private-cli';
import { residentMemory, timeProcess, type ProcessRun } from './process-timing';
import { cleanUpOnInterrupt, fmtMs, fmtRatio, formatTable, machineNote, sleep, stats, timeMs, waitForQuietCpu } from './stats';
import { TabFixture } from './tab-fixture';

const TABS_IN_WINDOW = [60, 40] as const;
const TOTAL_TABS = TABS_IN_WINDOW[0] + TABS_IN_WINDOW[1];
/** The one tab "switch to reddit" means. */
const REDDIT_TAB = 42;
const REDDIT_TITLE = 'Reddit - r/typescript';
const N = Number(process.env.DESKPILOT_BENCH_CLI_N) || 10;
const WARMUP = 1;
const SERVICE_START_TIMEOUT_MS = 120_000;
const TARGETS = { warm: 1.5, cold: 4, help: 2, serviceMiB: 120, snapshotVsCurl: 5, switchVsCurl: 2, scaling: 1.5 };
/** Tab counts of the scaling figure (the main figures use TOTAL_TABS). */
const SCALING_TABS = [10, 100, 300] as const;

type Mode = 'cold' | 'warm';

interface Measure {
  name: string;
  /** The CLI's arguments for the i-th run (exec switch_tab alternates between two tabs, so every call switches). */
  args(i: number): string[];
  /** Checks a run's output, so a failing command is never timed as a fast one. */
  check(run: ProcessRun): void;
  modes: readonly Mode[];
  /** The same thing on the in-process path; absent for --help. */
  inProcess?: (desk: LocalDesk, i: number) => Promise<void>;
}

const switchTarget = (i: number) => (i % 2 === 0 ? 5 : 65);
/** Every call moves the xterm: to the left monitor, then the right, and so on. */
const placeXterm = (i: number) => ({ type: 'place_app', app_name: 'XTerm', monitor: i % 2 === 0 ? 'left' : 'right' });

const MEASURES: Measure[] = [
  { name: '--help', args: () => ['--help'], check: expectOutput(/^Usage: deskpilot/), modes: ['cold', 'warm'] },
  {
    name: 'plan "switch to reddit"',
    args: () => ['plan', '--planner', 'local', 'switch to reddit'],
    check: expectOutput(new RegExp(`"tab_index": ${REDDIT_TAB}`)),
    modes: ['cold', 'warm'],
    inProcess: async (desk) => {
      const { outcome } = await desk.plan('switch to reddit', { mode: 'local' });
      if (outcome.envelope.commands.length !== 1) throw new Error(`plan gave ${JSON.stringify(outcome.envelope)}`);
    },
  },
  {
    name: 'run "switch to reddit"',
    args: () => ['run', '--planner', 'local', 'switch to reddit'],
    check: expectOutput(new RegExp(`^Switched to tab ${REDDIT_TAB} "${REDDIT_TITLE}"`)),
    modes: ['cold', 'warm'],
    inProcess: async (desk) => {
      const planned = await desk.plan('switch to reddit', { mode: 'local' });
      if (!planned.batch) throw new Error('"switch to reddit" planned no batch');
      expectDone(await desk.run(planned.batch));
    },
  },
  {
    name: 'exec switch_tab',
    args: (i) => ['exec', JSON.stringify({ type: 'switch_tab', tab_index: switchTarget(i) })],
    check: expectOutput(/"status": "done"/),
    modes: ['cold', 'warm'],
    inProcess: async (desk, i) => expectDone(await desk.exec({ type: 'switch_tab', tab_index: switchTarget(i) })),
  },
  {
    name: 'exec place_app',
    args: (i) => ['exec', JSON.stringify(placeXterm(i))],
    check: expectOutput(/"status": "done"/),
    modes: ['cold', 'warm'],
    inProcess: async (desk, i) => expectDone(await desk.exec(placeXterm(i))),
  },
  {
    name: 'context --json',
    args: () => ['context', '--json'],
    check: (run) => {
      const tabs = (JSON.parse(run.stdout) as { tabs: unknown[] }).tabs.length;
      if (tabs !== TOTAL_TABS) throw new Error(`context --json listed ${tabs} tabs`);
    },
    modes: ['cold', 'warm'],
    inProcess: async (desk) => {
      const snap = await desk.snapshot({ summaries: true });
      if (snap.tabs.length !== TOTAL_TABS) throw new Error(`the snapshot listed ${snap.tabs.length} tabs`);
    },
  },
];

/** The code caches of this build and what the chrome-run folder knows of the running Chrome. */
async function forgetCaches(configDir: string, cliRoot: string): Promise<void> {
  await Promise.all([
    rm(path.join(cliRoot, 'out', 'cli', 'code-cache'), { recursive: true, force: true }),
    ...['tab-pages.json', 'summaries.json', 'browser.json'].map((f) => rm(path.join(configDir, 'chrome-run', f), { force: true })),
  ]);
}

function expectOutput(pattern: RegExp): (run: ProcessRun) => void {
  return (run) => {
    if (run.code !== 0 || !pattern.test(run.stdout)) throw new Error(`exit ${run.code}, stdout ${JSON.stringify(run.stdout.slice(0, 300))}, stderr ${JSON.stringify(run.stderr.slice(0, 300))}`);
  };
}

function expectDone(report: { status: string; errors: Array<{ message: string }> }): void {
  if (report.status !== 'done') throw new Error(`ended ${report.status}: ${report.errors.map((e) => e.message).join('; ')}`);
}

/** Samples of one command in one mode, each paired with the bare node run just before it. */
interface Paired {
  ms: number[];
  cpu: number[];
  bareMs: number[];
  bareCpu: number[];
}

const median = (xs: readonly number[]) => stats(xs).p50;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function run(): Promise<void> {
  const started = performance.now();
  console.log(`CLI bench: whole processes against a bare \`node -e ''\`, ${TOTAL_TABS} tabs (${TABS_IN_WINDOW.join(' + ')} in 2 windows), N=${N} each`);

  let desk: Desktop | null = null;
  let fixture: TabFixture | null = null;
  let service: ChildProcess | null = null;
  let inProcess: LocalDesk | null = null;
  let stopWatching: (() => void) | null = null;
  let configDir: string | null = null;
  let cli: PrivateCli | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      stopWatching?.();
      await inProcess?.close().catch(() => undefined);
      if (service) await stopService(service);
      await fixture?.dispose().catch(() => undefined);
      await desk?.stop();
      if (configDir) await rm(configDir, { recursive: true, force: true });
      cli?.remove();
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);

  try {
    [desk, cli] = await Promise.all([startDesktop({ apps: ['xterm'] }), buildPrivateCli()]);
    const bin = cli.bin;
    const chrome = desk.chrome!;
    fixture = await TabFixture.connect(chrome.browserWsUrl);
    const specs = Array.from({ length: TOTAL_TABS }, (_, i) => {
      const title = i + 1 === REDDIT_TAB ? REDDIT_TITLE : `Bench tab ${i + 1}`;
      return { title, url: desk!.pages.url('page', { title, text: `Tab ${i + 1} of the DeskPilot CLI benchmark.` }) };
    });
    await fixture.openInTwoWindows(specs, TABS_IN_WINDOW[0]);

    configDir = await mkdtemp(path.join(tmpdir(), 'deskpilot-cli-bench-'));
    // No LLM: every measure is answered by the offline matcher, so no network is timed.
    const env: NodeJS.ProcessEnv = { ...desk.env, DESKPILOT_CONFIG_DIR: configDir, DESKPILOT_CHROME_URL: chrome.browserWsUrl, DESKPILOT_LLM_MODEL: '' };
    const coldEnv = { ...env, DESKPILOT_NO_SERVICE: '1' };
    service = await startService(bin, env);
    const servedCli = servedCounter(serviceSocketPath(configDir, env));
    await sleep(200);
    await waitForQuietCpu();

    const bare = () => timeProcess(process.execPath, ['-e', ''], env);
    const runCli = (args: string[], mode: Mode) => timeProcess(process.execPath, [bin, ...args], mode === 'cold' ? coldEnv : env);

    let call = 0;
    // The very first cold calls: no code cache for this build yet, nothing learnt about this
    // Chrome launch in the chrome-run folder. Every later cold call has both (the figures below).
    await forgetCaches(configDir, cli.root);
    const firstCalls: Array<{ name: string; run: ProcessRun; bare: ProcessRun }> = [];
    for (const m of [byName('exec switch_tab'), byName('context --json')]) {
      const b = await bare();
      const r = await runCli(m.args(call++), 'cold');
      m.check(r);
      firstCalls.push({ name: m.name, run: r, bare: b });
    }
    const results = new Map<string, Paired>();
    const key = (m: Measure, mode: Mode) => `${m.name}|${mode}`;
    for (let k = 0; k < WARMUP + N; k++) {
      for (const m of MEASURES) {
        // Rotate which mode goes first, so neither always follows the other.
        const modes = k % 2 === 0 ? m.modes : [...m.modes].reverse();
        for (const mode of modes) {
          const b = await bare();
          const before = mode === 'warm' ? await servedCli() : 0;
          const r = await runCli(m.args(call++), mode);
          try {
            m.check(r);
            if (mode === 'warm' && (await servedCli()) !== before + 1) throw new Error('the service did not run it: the CLI ran it in its own process');
          } catch (e) {
            throw new Error(`${m.name} (${mode}): ${(e as Error).message}`, { cause: e });
          }
          if (k < WARMUP) continue;
          const p = results.get(key(m, mode)) ?? { ms: [], cpu: [], bareMs: [], bareCpu: [] };
          p.ms.push(r.ms);
          p.bareMs.push(b.ms);
          if (r.cpuMs !== null && b.cpuMs !== null) {
            p.cpu.push(r.cpuMs);
            p.bareCpu.push(b.cpuMs);
          }
          results.set(key(m, mode), p);
        }
      }
    }
    const memory = residentMemory(service.pid!);
    const curl = await curlReferences(env, `http://127.0.0.1:${chrome.port}`, (await fixture.pages())[0]!.targetId);

    // The in-service path: the engine as the service (and the app) hold it — watching the tabs,
    // so its tab list is kept from Chrome's events — called from this process.
    const config = await loadConfig({}, env);
    const wired = await wireEngine(config, { env });
    stopWatching = wired.watchTabUse();
    inProcess = new LocalDesk(wired);
    await inProcess.snapshot({ summaries: false });
    const inProcessMs = new Map<string, number[]>();
    for (const m of MEASURES) {
      if (!m.inProcess) continue;
      const samples: number[] = [];
      for (let i = 0; i < WARMUP + 1 + N; i++) {
        const ms = await timeMs(() => m.inProcess!(inProcess!, call++));
        if (i > WARMUP) samples.push(ms);
      }
      inProcessMs.set(m.name, samples);
    }

    const warmSnapshot = await snapshotFigures(inProcess, wired.chrome, serviceSocketPath(configDir, env), `http://127.0.0.1:${chrome.port}`);

    printResults(results, inProcessMs, key);
    const bareAll = [...results.values()].flatMap((p) => p.bareMs);
    console.log('');
    console.log(
      `bare node: \`node -e ''\` run just before every CLI run; median ${fmtMs(median(bareAll))} (min ${fmtMs(Math.min(...bareAll))}, max ${fmtMs(Math.max(...bareAll))}) over ${bareAll.length} runs.`,
    );
    console.log(
      'wall: median (min–max) of the whole process, spawn to exit; ×bare: median of each run over the bare run just before it. ' +
        'cpu: mean user+system CPU of the process (kernel accounting, 10 ms ticks) and its ratio to bare node\'s mean — steadier than wall time on a busy machine.',
    );
    console.log(
      'cold: DESKPILOT_NO_SERVICE=1, the CLI composes an engine itself (connects to Chrome and X, lists all tabs). ' +
        'warm: `deskpilot service` runs for the same config directory; the thin client has it run the command and relays the output. ' +
        `in-process: the same engine called in this process (LocalDesk), no process start: what the app and the service pay per request. exec switch_tab alternates tabs ${switchTarget(0)} and ${switchTarget(1)} (two windows); exec place_app moves the xterm between the monitors; context --json includes tab summaries.`,
    );
    if (curl) {
      const warmSwitch = median(results.get(key(byName('exec switch_tab'), 'warm'))!.ms);
      console.log(
        `references: curl /json/list ${fmtMs(curl.list)}, curl /json/activate ${fmtMs(curl.activate)} (whole processes, medians of ${N}); ` +
          `warm exec switch_tab / curl /json/activate = ${fmtRatio(warmSwitch / curl.activate)} (target ≤${TARGETS.switchVsCurl}x: ${warmSwitch / curl.activate <= TARGETS.switchVsCurl ? 'yes' : 'NO'}).`,
      );
    }
    if (curl) {
      const bareMs = median(bareAll);
      console.log(
        `the floor for that target: a bare Node start (${fmtMs(bareMs)}) is already ${fmtRatio(bareMs / curl.activate)} curl /json/activate, and a warm call is a Node start plus the activation curl waits for too.`,
      );
    }
    console.log(
      `first cold calls (a new build without its code cache, a Chrome launch the chrome-run folder knows nothing of): ${firstCalls
        .map((f) => `${f.name} ${fmtMs(f.run.ms)} (${fmtRatio(f.run.ms / f.bare.ms)} bare${f.run.cpuMs !== null ? `, ${f.run.cpuMs} ms CPU` : ''})`)
        .join('; ')}; every later cold call starts from both caches.`,
    );
    printSnapshotFigures(warmSnapshot, curl?.list ?? null);
    const scaling = await scalingFigures({ fixture, pages: desk.pages, bin, env, servedCli, local: inProcess, have: TOTAL_TABS });
    printScaling(scaling);
    console.log(
      memory
        ? `service memory with Chrome connected and ${TOTAL_TABS} tabs: VmRSS ${memory.rssMiB.toFixed(1)} MiB (peak VmHWM ${memory.peakMiB.toFixed(1)} MiB); target < ${TARGETS.serviceMiB} MB: ${memory.rssMiB * 1.048576 < TARGETS.serviceMiB ? 'yes' : 'NO'}`
        : 'service memory: /proc is not readable here',
    );
    console.log(`machine: ${machineNote([`${TOTAL_TABS} tabs`])}; bench total ${fmtMs(performance.now() - started)}`);
  } finally {
    await cleanup();
    uninstall();
  }
}

function printResults(results: Map<string, Paired>, inProcessMs: Map<string, number[]>, key: (m: Measure, mode: Mode) => string): void {
  const cell = (p: Paired | undefined) => (p ? `${fmtMs(median(p.ms))} (${fmtMs(Math.min(...p.ms))}–${fmtMs(Math.max(...p.ms))})` : '—');
  const ratio = (p: Paired | undefined) => (p ? fmtRatio(median(p.ms.map((ms, i) => ms / p.bareMs[i]!))) : '—');
  const cpu = (p: Paired | undefined) => (p && p.cpu.length ? `${mean(p.cpu).toFixed(0)} ms ${fmtRatio(mean(p.cpu) / mean(p.bareCpu))}` : '—');
  const met = (p: Paired | undefined, limit: number) => {
    if (!p) return '';
    const wall = median(p.ms.map((ms, i) => ms / p.bareMs[i]!));
    const cpuRatio = p.cpu.length ? mean(p.cpu) / mean(p.bareCpu) : Number.NaN;
    return `≤${limit}x: wall ${wall <= limit ? 'yes' : 'NO'}, cpu ${cpuRatio <= limit ? 'yes' : 'NO'}`;
  };
  const rows = MEASURES.map((m) => {
    const cold = results.get(key(m, 'cold'));
    const warm = results.get(key(m, 'warm'));
    const local = inProcessMs.get(m.name);
    const help = m.name === '--help';
    return [
      m.name,
      cell(cold),
      ratio(cold),
      cpu(cold),
      cell(warm),
      ratio(warm),
      cpu(warm),
      local ? `${fmtMs(median(local))} (${fmtMs(Math.min(...local))}–${fmtMs(Math.max(...local))})` : '—',
      help ? `cold ${met(cold, TARGETS.help)}; warm ${met(warm, TARGETS.help)}` : `cold ${met(cold, TARGETS.cold)}; warm ${met(warm, TARGETS.warm)}`,
    ];
  });
  console.log('');
  console.log(
    formatTable([
      ['measure', 'CLI cold wall', '×bare', 'cpu, ×bare', 'CLI warm wall', '×bare', 'cpu, ×bare', 'in-process', 'targets met?'],
      ...rows,
    ]),
  );
}

const byName = (name: string) => MEASURES.find((m) => m.name === name)!;

/** How many `cli` requests the service has run so far (asked over its socket, as `deskpilot service status` does). */
function servedCounter(socketPath: string): () => Promise<number> {
  return async () => {
    const client = await connectService(socketPath);
    if (!client) throw new Error(`no service answers on ${socketPath}`);
    try {
      return (await (await RemoteDesk.open(client)).health()).served?.cli ?? 0;
    } finally {
      client.close();
    }
  };
}

/** Started as `deskpilot service install`'s unit starts it (its Node options included). */
async function startService(bin: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const [node, ...args] = serviceArgv({ node: process.execPath, bin });
  const child = spawn(node!, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`deskpilot service did not start within ${SERVICE_START_TIMEOUT_MS / 1000} s: ${output}`)), SERVICE_START_TIMEOUT_MS);
    const seen = (d: Buffer) => {
      output += d.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`deskpilot service exited (${code}) before it listened: ${output}`));
    });
  });
  return child;
}

async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The same two things without DeskPilot, as a script would do them; null when curl is not installed. */
async function curlReferences(env: NodeJS.ProcessEnv, base: string, targetId: string): Promise<{ list: number; activate: number } | null> {
  const list: number[] = [];
  const activate: number[] = [];
  for (let i = 0; i < WARMUP + N; i++) {
    let r: ProcessRun;
    try {
      r = await timeProcess('curl', ['-sf', `${base}/json/list`], env);
    } catch {
      return null;
    }
    if (r.code !== 0) return null;
    const a = await timeProcess('curl', ['-sf', `${base}/json/activate/${targetId}`], env);
    if (i >= WARMUP) {
      list.push(r.ms);
      activate.push(a.ms);
    }
  }
  return { list: median(list), activate: median(activate) };
}

interface SnapshotFigures {
  /** The engine's snapshot as the planner gets it (tabs, windows, monitors, apps, presets), in the service. */
  inService: number[];
  /** The tab listing alone (listTabsInDetail), in the service. */
  tabsOnly: number[];
  /** The same snapshot asked of the running service over its socket (what a client of the service pays). */
  overSocket: number[];
  /** GET /json/list from this process (no process start), for scale. */
  httpList: number[];
}

/** The warm snapshot with TOTAL_TABS tabs, without summaries (the offline matcher's view). */
async function snapshotFigures(local: LocalDesk, chrome: ChromeBackend, socketPath: string, base: string): Promise<SnapshotFigures> {
  const samples = async (fn: () => Promise<unknown>) => {
    const out: number[] = [];
    for (let i = 0; i < WARMUP + N; i++) {
      const ms = await timeMs(fn);
      if (i >= WARMUP) out.push(ms);
    }
    return out;
  };
  const expectTabs = (n: number) => {
    if (n !== TOTAL_TABS) throw new Error(`the snapshot listed ${n} tabs`);
  };
  const inService = await samples(async () => expectTabs((await local.snapshot({ summaries: false })).tabs.length));
  const tabsOnly = await samples(async () => expectTabs((await chrome.listTabsInDetail()).tabs.length));
  const client = await connectService(socketPath);
  if (!client) throw new Error(`no service answers on ${socketPath}`);
  let overSocket: number[];
  try {
    const remote = await RemoteDesk.open(client);
    overSocket = await samples(async () => expectTabs((await remote.snapshot({ summaries: false })).tabs.length));
  } finally {
    client.close();
  }
  const httpList = await samples(async () => {
    const r = await httpGet(`${base}/json/list`);
    if (r.status !== 200) throw new Error(`GET /json/list answered ${r.status}`);
  });
  return { inService, tabsOnly, overSocket, httpList };
}

function printSnapshotFigures(f: SnapshotFigures, curlList: number | null): void {
  const cell = (xs: number[]) => `${fmtMs(median(xs))} (${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))})`;
  const vsCurl = (xs: number[]) => (curlList === null ? '—' : `${(curlList / median(xs)).toFixed(1)}x faster`);
  const met = (xs: number[]) => (curlList === null ? '' : curlList / median(xs) >= TARGETS.snapshotVsCurl ? 'yes' : 'NO');
  console.log('');
  console.log(`warm ${TOTAL_TABS}-tab snapshot, no summaries (target: ≥${TARGETS.snapshotVsCurl}x faster than curl /json/list${curlList === null ? '' : `, ${fmtMs(curlList)}`}):`);
  console.log(
    formatTable([
      ['what', 'median (min–max)', 'vs curl /json/list', `≥${TARGETS.snapshotVsCurl}x?`],
      ['whole snapshot in the service (tabs, windows, monitors, apps, presets)', cell(f.inService), vsCurl(f.inService), met(f.inService)],
      ['its tab listing alone', cell(f.tabsOnly), vsCurl(f.tabsOnly), met(f.tabsOnly)],
      ['whole snapshot asked over the service socket', cell(f.overSocket), vsCurl(f.overSocket), met(f.overSocket)],
      ['GET /json/list from this process (no curl start)', cell(f.httpList), vsCurl(f.httpList), ''],
    ]),
  );
}

interface ScalingRow {
  tabs: number;
  warmCli: number[];
  bare: number[];
  inService: number[];
}

/**
 * A one-tab command (exec switch_tab, between the second and the second-to-last tab) at each of
 * SCALING_TABS tabs: the warm CLI as a whole process, and the same command in the service. Tabs
 * are added to the first window, or closed from its end, between the rows.
 */
async function scalingFigures(o: {
  fixture: TabFixture;
  pages: Desktop['pages'];
  bin: string;
  env: NodeJS.ProcessEnv;
  servedCli: () => Promise<number>;
  local: LocalDesk;
  have: number;
}): Promise<ScalingRow[]> {
  const rows: ScalingRow[] = [];
  // From the tabs open now, up first (opening is the slow part), then down.
  const order = [...SCALING_TABS.filter((n) => n >= o.have).sort((a, b) => a - b), ...SCALING_TABS.filter((n) => n < o.have).sort((a, b) => b - a)];
  for (const tabs of order) {
    await resizeTo(o, tabs);
    await waitForQuietCpu();
    const target = (i: number) => (i % 2 === 0 ? 2 : tabs - 1);
    const row: ScalingRow = { tabs, warmCli: [], bare: [], inService: [] };
    for (let i = 0; i < WARMUP + N; i++) {
      const b = await timeProcess(process.execPath, ['-e', ''], o.env);
      const before = await o.servedCli();
      const r = await timeProcess(process.execPath, [o.bin, 'exec', JSON.stringify({ type: 'switch_tab', tab_index: target(i) })], o.env);
      expectOutput(/"status": "done"/)(r);
      if ((await o.servedCli()) !== before + 1) throw new Error(`scaling at ${tabs} tabs: the service did not run exec switch_tab`);
      const local = await timeMs(async () => expectDone(await o.local.exec({ type: 'switch_tab', tab_index: target(i + 1) })));
      if (i < WARMUP) continue;
      row.warmCli.push(r.ms);
      row.bare.push(b.ms);
      row.inService.push(local);
    }
    rows.push(row);
  }
  return rows.sort((a, b) => a.tabs - b.tabs);
}

/** Opens tabs in the first window, or closes tabs from the end of the listing, until `tabs` are open. */
async function resizeTo(o: { fixture: TabFixture; pages: Desktop['pages']; local: LocalDesk }, tabs: number): Promise<void> {
  const open = await o.fixture.pages();
  if (open.length > tabs) {
    const listed = (await o.local.snapshot({ summaries: false })).tabs;
    for (const t of listed.slice(tabs)) await o.fixture.close(t.target_id);
  } else if (open.length < tabs) {
    const specs = Array.from({ length: tabs - open.length }, (_, i) => {
      const title = `Scaling tab ${open.length + i + 1}`;
      return { title, url: o.pages.url('page', { title, text: `Tab ${open.length + i + 1} of the scaling figure.` }) };
    });
    const anchor = (await o.local.snapshot({ summaries: false })).tabs[0]!.target_id;
    await o.fixture.openIn(anchor, specs);
  }
  const deadline = Date.now() + 60_000;
  while ((await o.local.snapshot({ summaries: false })).tabs.length !== tabs) {
    if (Date.now() > deadline) throw new Error(`the desk did not settle at ${tabs} tabs`);
    await sleep(100);
  }
}

function printScaling(rows: ScalingRow[]): void {
  const cell = (xs: number[]) => `${fmtMs(median(xs))} (${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))})`;
  const ratio = (r: ScalingRow) => median(r.warmCli.map((ms, i) => ms / r.bare[i]!));
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  console.log('');
  console.log(`one-tab command (exec switch_tab) from ${first.tabs} to ${last.tabs} tabs (target: ≤${TARGETS.scaling}x):`);
  console.log(
    formatTable([
      ['tabs', 'warm CLI wall', '×bare node', 'in the service'],
      ...rows.map((r) => [String(r.tabs), cell(r.warmCli), fmtRatio(ratio(r)), cell(r.inService)]),
    ]),
  );
  const wallScale = median(last.warmCli) / median(first.warmCli);
  const bareScale = ratio(last) / ratio(first);
  const serviceScale = median(last.inService) / median(first.inService);
  console.log(
    `${first.tabs} → ${last.tabs} tabs: warm CLI ${fmtRatio(wallScale)} by wall time, ${fmtRatio(bareScale)} by its ratio to bare node; ` +
      `in the service ${fmtRatio(serviceScale)} (≤${TARGETS.scaling}x: CLI ${bareScale <= TARGETS.scaling ? 'yes' : 'NO'}, service ${serviceScale <= TARGETS.scaling ? 'yes' : 'NO'}).`,
  );
}
