// CLI bench: what one `deskpilot` call costs as a whole process, side by side in one run with a
// bare `node -e ''`: the CLI with no service (cold: it composes an engine in its own process),
// the CLI while `deskpilot service` runs (warm: the thin client hands the whole command to the
// service and relays its output), and the in-process path the service and the app use (the
// engine called directly, no process start). On a real Xvfb desktop with a headful Chromium
// holding 100 tabs and an xterm. Figures only: targets are reported, never asserted.
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
import { wireEngine } from '../src/compose/wire-engine';
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
const TARGETS = { warm: 1.5, cold: 4, help: 2, serviceMiB: 120 };

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
  let configDir: string | null = null;
  let cli: PrivateCli | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
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
    const results = new Map<string, Paired>();
    const key = (m: Measure, mode: Mode) => `${m.name}|${mode}`;
    let call = 0;
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

    // The in-process path: the engine the service (and the app) hold, called from this process.
    const config = await loadConfig({}, env);
    inProcess = new LocalDesk(await wireEngine(config, { env }));
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
      console.log(
        `references: curl /json/list ${fmtMs(curl.list)}, curl /json/activate ${fmtMs(curl.activate)} (whole processes, medians of ${N}); ` +
          `warm exec switch_tab / curl /json/activate = ${fmtRatio(median(results.get(key(byName('exec switch_tab'), 'warm'))!.ms) / curl.activate)}.`,
      );
    }
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

async function startService(bin: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, 'service'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
