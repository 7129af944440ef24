// DeskPilot's MCP server against Google's chrome-devtools-mcp on the same Chromium, in the same
// run: spawn → first answer, per-call p50/p95 of a read tool (list_tabs vs list_pages) and an
// acting tool (switch_tab vs select_page), with DeskPilot's warm service and without it, and the
// size of each answer as a client hands it to a model. 100 real tabs on a real Xvfb desktop.
//
// Size: tokens by gpt-tokenizer (o200k, already a devDependency for the planner bench); the
// "whole result" is the text content plus JSON.stringify(structuredContent), the most a client
// could pass (Claude Code and VS Code pass the JSON alone, others the text alone); characters/4
// is given beside it as a tokenizer-free proxy.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encode } from 'gpt-tokenizer';
import { stdioClient, type McpTestClient } from '../tests/mcp/mcp-client';
import { startCli, type RunningCli } from '../tests/mcp/running-cli';
import { startDesktop, type Desktop } from '../tests/support/desktop';
import { TabFixture } from './tab-fixture';
import { interleaved } from './mcp-bench';
import { cleanUpOnInterrupt, fmtRatio, fmtStats, formatTable, machineNote, stats, timeMs, waitForQuietCpu, type Stats } from './stats';

const TABS = 100;
const SPAWNS = 5;
const WARMUP = 20;
const N = 60;
const DEVTOOLS_BIN = path.join(__dirname, '..', 'node_modules', 'chrome-devtools-mcp', 'build', 'src', 'bin', 'chrome-devtools-mcp.js');

/** One MCP server as a client sees it: how to start it, and its read and acting calls. */
interface Side {
  name: string;
  start(): Promise<McpTestClient>;
  read(c: McpTestClient): Promise<CallToolResult>;
  act(c: McpTestClient, i: number): Promise<unknown>;
}

/** Characters and tokens of a result as a client passes it on: text, structured JSON, both. */
export function resultSize(r: CallToolResult): { text: number; json: number; whole: number; chars: number } {
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const json = r.structuredContent ? JSON.stringify(r.structuredContent) : '';
  return { text: encode(text).length, json: json ? encode(json).length : 0, whole: encode(text + json).length, chars: text.length + json.length };
}

export async function runVsDevtools(): Promise<void> {
  console.log(`\nMCP vs chrome-devtools-mcp on the same Chromium: ${TABS} tabs; list_tabs vs list_pages, switch_tab vs select_page`);
  let desk: Desktop | null = null;
  let fixture: TabFixture | null = null;
  let dir: string | null = null;
  let service: RunningCli | null = null;
  const clients: McpTestClient[] = [];
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const c of clients) await c.close().catch(() => undefined);
      await service?.stop();
      await fixture?.dispose().catch(() => undefined);
      await desk?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    })());
  const uninstall = cleanUpOnInterrupt(cleanup);
  try {
    desk = await startDesktop({ chrome: true });
    fixture = await TabFixture.connect(desk.chrome!.browserWsUrl);
    const specs = Array.from({ length: TABS }, (_, i) => {
      const title = `Issue ${1000 + i}: the sync test fails on a loaded machine · deskpilot`;
      return { title, url: desk!.pages.url('page', { title }) };
    });
    await fixture.openInTwoWindows(specs, TABS / 2);
    dir = await mkdtemp(path.join(tmpdir(), 'deskpilot-mcp-vs-'));
    const base = { ...desk.env, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, XDG_DATA_DIRS: '/usr/share' };
    const warmEnv = { ...base, DESKPILOT_CONFIG_DIR: path.join(dir, 'warm') };
    const coldEnv = { ...base, DESKPILOT_CONFIG_DIR: path.join(dir, 'cold') };
    service = await startCli(['service'], warmEnv, /listening on /);

    const snapshots = new Map<McpTestClient, string>();
    const deskpilot = (name: string, env: NodeJS.ProcessEnv): Side => ({
      name,
      start: () => stdioClient(env),
      read: async (c) => {
        const r = await c.call('list_tabs');
        snapshots.set(c, (r.structuredContent as { snapshot_id: string }).snapshot_id);
        return r;
      },
      act: (c, i) => c.call('switch_tab', { snapshot_id: snapshots.get(c), tab_index: (i % TABS) + 1 }),
    });
    const devtools: Side = {
      name: 'chrome-devtools-mcp',
      start: () => devtoolsClient(desk!.chrome!.browserWsUrl, desk!.env),
      read: (c) => c.call('list_pages'),
      // Page ids are 1…N in its own numbering; bringToFront does what switch_tab does (show the tab).
      act: (c, i) => c.call('select_page', { pageId: (i % TABS) + 1, bringToFront: true }),
    };
    const sides = [deskpilot('DeskPilot, warm service', warmEnv), deskpilot('DeskPilot, no service', coldEnv), devtools];

    // Spawn → first answer: a fresh server process each time, as a client starting it does.
    const firstAnswer: Stats[] = [];
    for (const side of sides) {
      const samples: number[] = [];
      for (let k = 0; k < SPAWNS; k++) {
        let c: McpTestClient | null = null;
        samples.push(
          await timeMs(async () => {
            c = await side.start();
            await check(side.read(c), `${side.name} first read`);
          }),
        );
        await (c as McpTestClient | null)?.close();
      }
      firstAnswer.push(stats(samples));
    }

    const live = await Promise.all(sides.map((s) => s.start()));
    clients.push(...live);
    const sizes = await Promise.all(sides.map((s, k) => s.read(live[k]!).then(resultSize)));
    const optional = await Promise.all([live[0]!.call('list_tabs', { urls: true }), live[0]!.call('list_tabs', { urls: true, ids: true })]);
    await waitForQuietCpu();
    const reads = await interleaved(sides.map((s, k) => () => check(s.read(live[k]!), `${s.name} read`)), N, WARMUP);
    const acts = await interleaved(sides.map((s, k) => (i: number) => check(s.act(live[k]!, i), `${s.name} act`)), N, WARMUP);

    const dt = sides.length - 1;
    const ratio = (a: Stats, b: Stats) => `${fmtRatio(a.p50 / b.p50)} (p95 ${fmtRatio(a.p95 / b.p95)})`;
    const rows = [['', ...sides.map((s) => s.name), 'warm ÷ devtools', 'no service ÷ devtools']];
    const line = (what: string, s: Stats[]) => rows.push([what, ...s.map(fmtStats), ratio(s[0]!, s[dt]!), ratio(s[1]!, s[dt]!)]);
    line('spawn → first answer', firstAnswer);
    line('read: list_tabs / list_pages', reads.map(stats));
    line('act: switch_tab / select_page', acts.map(stats));
    console.log(formatTable(rows));
    const r0 = sizes[0]!.whole / sizes[dt]!.whole;
    console.log(`target: list_tabs ≤ 1.0× list_pages at p50 with the service — ${stats(reads[0]!).p50 <= stats(reads[dt]!).p50 ? 'met' : 'NOT met'}`);

    const sizeRows = [['answer', 'text tokens', 'structured JSON tokens', 'whole (text + JSON) tokens', 'characters/4']];
    const sizeLine = (what: string, s: ReturnType<typeof resultSize>) => sizeRows.push([what, String(s.text), String(s.json), String(s.whole), String(Math.round(s.chars / 4))]);
    sizeLine('list_tabs', sizes[0]!);
    sizeLine('list_tabs urls: true', resultSize(optional[0]));
    sizeLine('list_tabs urls + ids', resultSize(optional[1]));
    sizeLine('list_pages (chrome-devtools-mcp)', sizes[dt]!);
    console.log(formatTable(sizeRows));
    console.log(`whole list_tabs ÷ list_pages: ${fmtRatio(r0)} (target < 1.0×: ${r0 < 1 ? 'met' : 'NOT met'}); tokens by gpt-tokenizer (o200k).`);
    // What a model really gets: Claude Desktop passes the text alone, Claude Code and VS Code the JSON alone.
    const [text, json] = [sizes[0]!.text / sizes[dt]!.whole, sizes[0]!.json / sizes[dt]!.whole];
    console.log(`each part alone ÷ list_pages: text ${fmtRatio(text)}, structured JSON ${fmtRatio(json)} (a client passes one of them to its model).`);
    console.log(machineNote([`${N} calls each, interleaved, after ${WARMUP} warm-up; spawn → first answer ${SPAWNS} times each; chrome-devtools-mcp ${devtoolsVersion()}`]));
  } finally {
    uninstall();
    await cleanup();
  }
}

async function check(call: Promise<unknown>, what: string): Promise<void> {
  const r = (await call) as CallToolResult;
  if (r.isError) throw new Error(`${what} failed: ${JSON.stringify(r.content).slice(0, 400)}`);
}

/** chrome-devtools-mcp attached to the running Chromium (never launching its own), over stdio. */
async function devtoolsClient(wsEndpoint: string, env: NodeJS.ProcessEnv): Promise<McpTestClient> {
  const vars = Object.fromEntries(Object.entries({ ...env, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' }).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [DEVTOOLS_BIN, '--wsEndpoint', wsEndpoint, '--no-usage-statistics', '--no-performance-crux'], env: vars, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'deskpilot-bench', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    asked: [],
    stderr: () => err,
    pid: transport.pid,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

function devtoolsVersion(): string {
  return (require(path.join(__dirname, '..', 'node_modules', 'chrome-devtools-mcp', 'package.json')) as { version: string }).version;
}

// Run alone: `npx tsx bench/mcp-devtools-bench.ts` (npm run bench -- mcp runs it after the MCP bench).
if (require.main === module) void runVsDevtools().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
