// MCP bench: one tool call round trip (client → server → effect → answer) for switch_tab and
// place_app, through `deskpilot mcp` (stdio and Streamable HTTP, the SDK's own client), side by
// side with the same operation sent to the warm service directly and run as `deskpilot exec`.
// 20 real tabs and a real xterm on a real Xvfb desktop. Figures only; the target is reported.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RemoteDesk } from '../src/app/remote-desk';
import { connectService } from '../src/platform/service/socket-client';
import { serviceSocketPath } from '../src/platform/service/socket-path';
import type { ExecReport } from '../src/protocol/report';
import { httpClient, stdioClient, type McpTestClient } from '../tests/mcp/mcp-client';
import { startCli, type RunningCli } from '../tests/mcp/running-cli';
import { CLI } from '../tests/mcp/cli-path';
import { startDesktop, type Desktop } from '../tests/support/desktop';
import { RawCdp } from '../tests/support/raw-cdp';
import { cleanUpOnInterrupt, fmtMs, fmtStats, formatTable, machineNote, stats, timeMs, waitForQuietCpu, type Stats } from './stats';

const TABS = 20;
const WARMUP = 5;
const N = 40;
/** A fresh `deskpilot exec` process per call: fewer samples, it is the slow one by far. */
const EXEC_N = 10;
const TARGET_OVERHEAD_MS = 5;
/** Two outer frames for xterm, one per monitor, alternated so every call really moves it. */
const RECTS = [
  [200, 150, 1000, 750],
  [2200, 200, 3000, 800],
] as const;

export async function run(): Promise<void> {
  console.log(`MCP bench: a tool call round trip through \`deskpilot mcp\` vs the warm service vs \`deskpilot exec\`; ${TABS} tabs, xterm, Xvfb`);
  let desk: Desktop | null = null;
  let raw: RawCdp | null = null;
  let dir: string | null = null;
  let service: RunningCli | null = null;
  let httpServer: RunningCli | null = null;
  const clients: McpTestClient[] = [];
  let remote: RemoteDesk | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const c of clients) await c.close().catch(() => undefined);
      await remote?.close().catch(() => undefined);
      await httpServer?.stop();
      await service?.stop();
      await raw?.dispose().catch(() => undefined);
      await desk?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);

  try {
    desk = await startDesktop({ apps: ['xterm'], chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    const blank = await raw.pages();
    for (let i = 1; i <= TABS; i++) await raw.open(desk.pages.url('page', { title: `Tab ${i}` }));
    for (const p of blank) await raw.close(p.targetId);
    dir = await mkdtemp(path.join(tmpdir(), 'deskpilot-mcp-bench-'));
    const configDir = path.join(dir, 'config');
    const env = { ...desk.env, DESKPILOT_CONFIG_DIR: configDir, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, XDG_DATA_DIRS: '/usr/share' };

    service = await startCli(['service'], env, /listening on /);
    const socket = await connectService(serviceSocketPath(configDir));
    if (!socket) throw new Error('the service did not answer on its socket');
    remote = await RemoteDesk.open(socket);
    const stdio = await stdioClient(env);
    clients.push(stdio);
    httpServer = await startCli(['mcp', '--http', '--port', '0'], env, /bearer token[^\n]*\n/);
    const url = /at (http:\/\/\S+\/mcp),/.exec(httpServer.stdout())![1]!;
    const token = /: (\S+)\n$/.exec(httpServer.stdout())![1]!;
    const http = await httpClient(url, token);
    clients.push(http);
    if (![stdio.stderr(), httpServer.stdout()].every((out) => out.includes('through the running DeskPilot service'))) {
      throw new Error('an MCP server is not using the warm service');
    }
    const snapshotOf = async (c: McpTestClient) => (await c.call('list_tabs')).structuredContent!.snapshot_id as string;
    const snaps = new Map<McpTestClient, string>([
      [stdio, await snapshotOf(stdio)],
      [http, await snapshotOf(http)],
    ]);
    const kept = await remote.snapshot({ summaries: false });
    await waitForQuietCpu();

    const check = (what: string, report: ExecReport) => {
      if (report.status !== 'done') throw new Error(`${what}: ${report.status} ${JSON.stringify(report.errors)}`);
    };
    const mcpCall = async (c: McpTestClient, name: string, args: Record<string, unknown>) => {
      const r = await c.call(name, args);
      if (r.isError) throw new Error(`${name} over MCP failed: ${JSON.stringify(r.content)}`);
    };
    const execCli = (cmd: unknown) =>
      new Promise<void>((resolve, reject) =>
        execFile(process.execPath, [CLI, 'exec', JSON.stringify(cmd)], { env }, (e, _out, err) => (e ? reject(new Error(`deskpilot exec failed: ${err}`)) : resolve())),
      );

    const ops = {
      switch_tab: {
        // The same work as the MCP server does: the index resolved in a snapshot taken once.
        service: (i: number) => remote!.exec({ type: 'switch_tab', tab_index: (i % TABS) + 1 }, { snapshot: kept }).then((r) => check('switch_tab', r)),
        mcp: (c: McpTestClient, i: number) => mcpCall(c, 'switch_tab', { snapshot_id: snaps.get(c), tab_index: (i % TABS) + 1 }),
        exec: (i: number) => execCli({ type: 'switch_tab', tab_index: (i % TABS) + 1 }),
      },
      place_app: {
        service: (i: number) => remote!.exec({ type: 'place_app', app_name: 'XTerm', bounds: [...RECTS[i % 2]!] }).then((r) => check('place_app', r)),
        mcp: (c: McpTestClient, i: number) => mcpCall(c, 'place_app', { app_name: 'XTerm', bounds: [...RECTS[i % 2]!] }),
        exec: (i: number) => execCli({ type: 'place_app', app_name: 'XTerm', bounds: [...RECTS[i % 2]!] }),
      },
    };

    const serverCpu: string[] = [];
    const rows: string[][] = [['tool call', 'warm service', 'MCP stdio', 'MCP HTTP', 'deskpilot exec', 'MCP − service (median)', `target < ${TARGET_OVERHEAD_MS} ms`]];
    for (const [name, op] of Object.entries(ops)) {
      // Interleaved, so a load spike from other work lands on every path alike; the overhead is
      // the median of the per-round differences.
      const cpuBefore = [cpuMs(stdio.pid!), cpuMs(httpServer.child.pid!)];
      const rounds = await interleaved([op.service, (i) => op.mcp(stdio, i), (i) => op.mcp(http, i)], N);
      serverCpu.push(`${name}: stdio ${fmtMs((cpuMs(stdio.pid!) - cpuBefore[0]!) / (N + WARMUP))}, HTTP ${fmtMs((cpuMs(httpServer.child.pid!) - cpuBefore[1]!) / (N + WARMUP))}`);
      const exec = stats(await sequential(op.exec, EXEC_N));
      const [svc, viaStdio, viaHttp] = rounds.map(stats) as [Stats, Stats, Stats];
      const overhead = Math.max(median(diffs(rounds[1]!, rounds[0]!)), median(diffs(rounds[2]!, rounds[0]!)));
      rows.push([name, fmtStats(svc), fmtStats(viaStdio), fmtStats(viaHttp), fmtStats(exec), fmtMs(overhead), overhead < TARGET_OVERHEAD_MS ? 'met' : 'NOT met']);
    }
    console.log(formatTable(rows));
    console.log('p50 (p95) per call; MCP − service: the median per-round difference, of the slower MCP transport.');
    console.log('switch_tab resolves the index in a snapshot taken once (MCP: the one the client read, kept by the server); exec takes a fresh one per call.');
    console.log(`CPU the MCP server process spends per call (utime+stime; moves far less with the load than wall time): ${serverCpu.join('; ')}`);
    console.log(machineNote([`${N} calls each after ${WARMUP} warm-up (deskpilot exec: ${EXEC_N})`]));
  } finally {
    uninstall();
    await cleanup();
  }
  // Against Google's chrome-devtools-mcp on a Chromium of its own (100 tabs), after this desk is down.
  await (await import('./mcp-devtools-bench')).runVsDevtools();
}

/**
 * `n` rounds, each calling every op once in turn (after warm-up); the samples per op. Every call
 * gets the next number, so consecutive calls always change something (another tab, the other rect).
 */
export async function interleaved(ops: Array<(i: number) => Promise<unknown>>, n: number, warmup = WARMUP): Promise<number[][]> {
  let call = 0;
  for (let i = 0; i < warmup; i++) for (const op of ops) await op(call++);
  const samples = ops.map((): number[] => []);
  for (let i = 0; i < n; i++) {
    // Each round starts with the next op, so none always follows the same one (a window still settling, say).
    for (let j = 0; j < ops.length; j++) {
      const k = (i + j) % ops.length;
      samples[k]!.push(await timeMs(() => ops[k]!(call++)));
    }
  }
  return samples;
}

async function sequential(op: (i: number) => Promise<unknown>, n: number): Promise<number[]> {
  return (await interleaved([op], n))[0]!;
}

/** CPU time a process has used so far (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
  return ((utime! + stime!) * 1000) / 100;
}

const diffs = (a: number[], b: number[]) => a.map((x, i) => x - b[i]!);
const median = (xs: number[]) => stats(xs).p50;
