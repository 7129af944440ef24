// `npm run bench`: runs every bench module in turn (or only those named on the command line,
// e.g. `npm run bench -- chrome cli`). Each module exports `run(): Promise<void>` and prints its
// own figures; benches never assert timings, so the exit code only says whether one crashed.
import * as chromeBench from './chrome-bench';
import * as plannerBench from './planner-bench';
import * as windowsBench from './windows-bench';

interface BenchModule {
  name: string;
  run(): Promise<void>;
}

const BENCHES: BenchModule[] = [
  { name: 'chrome', run: chromeBench.run },
  { name: 'windows', run: windowsBench.run },
  { name: 'planner', run: plannerBench.run },
  { name: 'cli', run: async () => (await import('./cli-bench')).run() },
  { name: 'agent-snapshot', run: async () => (await import('./agent-snapshot-bench')).run() },
  { name: 'ui', run: async () => (await import('./ui-bench')).run() },
  { name: 'mcp', run: async () => (await import('./mcp-bench')).run() },
  { name: 'sync', run: async () => (await import('./sync-bench')).run() },
  { name: 'tabs', run: async () => (await import('./tabs-bench')).run() },
  { name: 'real-pages', run: async () => (await import('./real-pages-bench')).run() },
  { name: 'soak', run: async () => (await import('./soak-bench')).run() },
];

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !BENCHES.some((b) => b.name === w));
  if (unknown.length > 0) {
    console.error(`unknown bench ${unknown.join(', ')}; available: ${BENCHES.map((b) => b.name).join(', ')}`);
    return 2;
  }
  let failed = 0;
  for (const bench of BENCHES.filter((b) => wanted.length === 0 || wanted.includes(b.name))) {
    console.log(`\n=== bench: ${bench.name} ===`);
    try {
      await bench.run();
    } catch (e) {
      failed++;
      console.error(`bench ${bench.name} crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

void main().then((code) => {
  process.exitCode = code;
  // Every bench cleans up after itself; this only keeps a stray handle from holding the process.
  setTimeout(() => process.exit(code), 2_000).unref();
});
