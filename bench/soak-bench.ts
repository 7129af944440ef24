// Soak: does the warm service stay the same size under long use? 10,000 warm calls of mixed
// commands through the service's socket, then 1,000 tab open/close cycles on a real Chromium
// through the same service, with its resident memory (VmRSS) and open file descriptors read
// after warm-up, after the calls and at the end. Target: the end within 10% of the post-warm-up
// memory, and no growth in descriptors. Each reading follows a full garbage collection, asked
// through the service's inspector (it runs with --inspect on loopback for this), and reports the
// JS heap in use beside VmRSS: RSS alone mixes a leak with V8 keeping freed room. Sizes can be made
// smaller for a quick look: SOAK_CALLS=1000 SOAK_TABS=100 npm run bench -- soak.
// The service runs once per variant (SOAK_VARIANTS, comma-separated; default all): started as a
// shell starts it (`node bin/deskpilot.js service`), as the installed unit starts it (its Node
// options and environment, unit-files.ts), and the unit's Node options without its environment:
// SOAK_VARIANTS=shell,unit-options,unit-arenas,unit.
// Each reading splits resident memory into what it is made of (memory-parts.ts), so growth is
// placed by measurement: V8's heap, buffers outside it, or native (malloc) memory.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import CDP from 'chrome-remote-interface';
import { RemoteDesk } from '../src/app/remote-desk';
import { connectService } from '../src/platform/service/socket-client';
import { serviceSocketPath } from '../src/platform/service/socket-path';
import { SERVICE_ENV, SERVICE_NODE_OPTIONS } from '../src/platform/service/unit-files';
import type { ExecReport } from '../src/protocol/report';
import { startCli, type RunningCli } from '../tests/mcp/running-cli';
import { startDesktop, type Desktop } from '../tests/support/desktop';
import { waitFor } from '../tests/support/wait-for';
import { memoryParts, type MemoryParts } from './memory-parts';
import { cleanUpOnInterrupt, formatTable, machineNote, sleep } from './stats';

const CALLS = Number(process.env.SOAK_CALLS ?? 10_000);
const TAB_CYCLES = Number(process.env.SOAK_TABS ?? 1_000);
const WARMUP_CALLS = 500;
const WARMUP_TABS = 20;
/** Tabs open the whole time, so listings have something to list. */
const STANDING_TABS = 20;
const RECTS = [
  [100, 100, 900, 700],
  [1000, 200, 1800, 800],
] as const;

/** How the service process is started: Node's options and what is added to its environment. */
interface Variant {
  name: string;
  nodeOptions: readonly string[];
  env: Record<string, string>;
}

const VARIANTS: Variant[] = [
  { name: 'shell', nodeOptions: [], env: {} },
  { name: 'unit-options', nodeOptions: SERVICE_NODE_OPTIONS, env: {} },
  // The unit's arena limit without its fixed malloc thresholds, to compare them.
  { name: 'unit-arenas', nodeOptions: SERVICE_NODE_OPTIONS, env: { MALLOC_ARENA_MAX: '2' } },
  { name: 'unit', nodeOptions: SERVICE_NODE_OPTIONS, env: { ...SERVICE_ENV } },
];

interface Reading extends MemoryParts {
  when: string;
  fds: number;
}

const openFds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;
const pct = (x: number, base: number) => `${(((x - base) / base) * 100).toFixed(1)}%`;
const mib = (x: number) => `${x.toFixed(1)}`;

export async function run(): Promise<void> {
  const wanted = (process.env.SOAK_VARIANTS ?? '').split(',').map((w) => w.trim()).filter(Boolean);
  const variants = wanted.length ? VARIANTS.filter((v) => wanted.includes(v.name)) : VARIANTS;
  if (variants.length === 0) throw new Error(`SOAK_VARIANTS names none of: ${VARIANTS.map((v) => v.name).join(', ')}`);
  const results: Array<{ variant: Variant; readings: Reading[] }> = [];
  for (const variant of variants) {
    console.log(`\n-- service started as "${variant.name}": node ${[...variant.nodeOptions, '…/deskpilot.js service'].join(' ')}${Object.entries(variant.env).map(([k, v]) => ` with ${k}=${v}`).join('')}`);
    results.push({ variant, readings: await soak(variant) });
  }
  console.log(
    '\nall variants, same run (MiB; growth is the end against the post-warm-up reading):\n' +
      formatTable([
        ['variant', 'RSS warm-up', 'RSS end', 'growth', 'native growth', 'malloc warm-up → end', 'arenas', 'V8 committed growth', 'heap used growth', 'fds warm-up → end'],
        ...results.map(({ variant, readings }) => {
          const [b, e] = [readings[1]!, readings.at(-1)!];
          return [variant.name, mib(b.rssMiB), mib(e.rssMiB), pct(e.rssMiB, b.rssMiB), `${mib(e.nativeMiB - b.nativeMiB)} MiB`, `${mib(b.mallocMiB)} → ${mib(e.mallocMiB)}`, `1 + ${e.arenas}`, `${mib(e.heapTotalMiB - b.heapTotalMiB)} MiB`, `${mib(e.heapUsedMiB - b.heapUsedMiB)} MiB`, `${b.fds} → ${e.fds}`];
        }),
      ]),
  );
  console.log(machineNote([`Chromium, ${STANDING_TABS} standing tabs`, `${CALLS} calls, ${TAB_CYCLES} tab cycles per variant`]));
}

async function soak(variant: Variant): Promise<Reading[]> {
  let desk: Desktop | null = null;
  let dir: string | null = null;
  let service: RunningCli | null = null;
  let remote: RemoteDesk | null = null;
  let inspector: CDP.Client | null = null;
  const cleanup = async () => {
    await inspector?.close().catch(() => undefined);
    await remote?.close().catch(() => undefined);
    await service?.stop();
    await desk?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  const uninstall = cleanUpOnInterrupt(cleanup);
  try {
    desk = await startDesktop({ apps: ['xterm'], chrome: true });
    dir = await mkdtemp(path.join(tmpdir(), 'deskpilot-soak-'));
    const configDir = path.join(dir, 'config');
    // NODE_OPTIONS carries the variant's V8 options the way its command line would (V8 reads both at start).
    const nodeOptions = ['--inspect=127.0.0.1:0', ...variant.nodeOptions].join(' ');
    const env = { ...desk.env, ...variant.env, DESKPILOT_CONFIG_DIR: configDir, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, XDG_DATA_DIRS: '/usr/share', NODE_OPTIONS: nodeOptions };
    service = await startCli(['service'], env, /listening on /);
    const pid = service.child.pid!;
    const svc = service;
    const inspectorUrl = await waitFor('the service inspector', () => /Debugger listening on (ws:\S+)/.exec(svc.stderr())?.[1]);
    inspector = await CDP({ target: inspectorUrl, local: true });
    const insp = inspector;
    const socket = await connectService(serviceSocketPath(configDir));
    if (!socket) throw new Error('the service did not answer on its socket');
    remote = await RemoteDesk.open(socket);
    const r = remote;
    const page = (title: string) => desk!.pages.url('page', { title });

    const check = (what: string, report: ExecReport) => {
      if (report.status !== 'done') throw new Error(`${what}: ${report.status} ${JSON.stringify(report.errors)}`);
    };
    for (let i = 1; i <= STANDING_TABS; i++) check('open_url', await r.exec({ type: 'open_url', url: page(`Standing ${i}`) }));

    // The mix: what a front end asks most (snapshots, listings, questions, health) and actions
    // that write history and undo (a window moved, a tab switched).
    const mixed: Array<(i: number) => Promise<unknown>> = [
      () => r.snapshot({ summaries: false }),
      () => r.exec({ type: 'list_tabs' }).then((x) => check('list_tabs', x)),
      () => r.exec({ type: 'count_tabs_by_domain' }).then((x) => check('count_tabs_by_domain', x)),
      () => r.exec({ type: 'query', question: 'how many tabs are open?' }),
      () => r.health(),
      (i) => r.exec({ type: 'place_app', app_name: 'XTerm', bounds: [...RECTS[i % 2]!] }).then((x) => check('place_app', x)),
      (i) => r.exec({ type: 'switch_tab', tab_index: (i % STANDING_TABS) + 1 }).then((x) => check('switch_tab', x)),
      () => r.exec({ type: 'list_apps' }).then((x) => check('list_apps', x)),
    ];
    const calls = async (n: number) => {
      for (let i = 0; i < n; i++) await mixed[i % mixed.length]!(i);
    };
    /** Opens a tab through the service and closes it by its index in a fresh snapshot. */
    const tabCycle = async (i: number) => {
      const url = page(`Cycle ${i}`);
      check('open_url', await r.exec({ type: 'open_url', url }));
      // The service learns the tab's address from Chrome's events: a snapshot right away may not have it yet.
      let snap = await r.snapshot({ summaries: false });
      for (let k = 0; k < 100 && !snap.tabs.some((t) => t.url === url); k++) snap = await r.snapshot({ summaries: false });
      const tab = snap.tabs.find((t) => t.url === url);
      if (!tab) throw new Error(`the tab ${url} is not in the snapshot`);
      check('close_tab', await r.exec({ type: 'close_tab', tab_indices: [tab.index] }, { snapshot: snap }));
    };

    const readings: Reading[] = [];
    const read = async (when: string) => {
      // A moment for the service's timers to run, then a full collection before reading.
      await sleep(2_000);
      readings.push({ when, ...(await memoryParts(pid, insp)), fds: openFds(pid) });
      const x = readings.at(-1)!;
      console.log(`  ${when}: ${mib(x.rssMiB)} MiB RSS, ${mib(x.heapUsedMiB)} MiB heap used, ${x.fds} fds`);
    };
    await read('fresh');
    await calls(WARMUP_CALLS);
    for (let i = 0; i < WARMUP_TABS; i++) await tabCycle(-1 - i);
    await read('after warm-up');
    const t0 = Date.now();
    await calls(CALLS);
    const callsMs = Date.now() - t0;
    await read(`after ${CALLS} calls`);
    const t1 = Date.now();
    for (let i = 0; i < TAB_CYCLES; i++) await tabCycle(i);
    const tabsMs = Date.now() - t1;
    await read(`after ${TAB_CYCLES} tab cycles`);

    const base = readings[1]!;
    const end = readings.at(-1)!;
    const growth = (end.rssMiB - base.rssMiB) / base.rssMiB;
    console.log(
      '\n' +
        formatTable([
          ['reading (MiB)', 'VmRSS', 'vs warm-up', 'anon', 'file', 'V8 committed', 'V8 used after GC', 'vs warm-up', 'buffers', 'native (est.)', 'malloc', 'arenas', 'threads', 'fds'],
          ...readings.map((x) => [
            x.when,
            mib(x.rssMiB),
            pct(x.rssMiB, base.rssMiB),
            mib(x.anonMiB),
            mib(x.fileMiB),
            mib(x.heapTotalMiB),
            mib(x.heapUsedMiB),
            pct(x.heapUsedMiB, base.heapUsedMiB),
            mib(x.buffersMiB),
            mib(x.nativeMiB),
            mib(x.mallocMiB),
            `1 + ${x.arenas}`,
            String(x.threads),
            String(x.fds),
          ]),
        ]),
    );
    console.log(`\n${CALLS} calls in ${(callsMs / 1000).toFixed(1)} s; ${TAB_CYCLES} tab open/close cycles in ${(tabsMs / 1000).toFixed(1)} s`);
    console.log(`memory: ${growth <= 0.1 ? 'within' : 'NOT within'} 10% of the post-warm-up level (${(growth * 100).toFixed(1)}%); fds: ${end.fds <= base.fds ? 'no growth' : `grew by ${end.fds - base.fds}`}`);
    return readings;
  } finally {
    uninstall();
    await cleanup();
  }
}
