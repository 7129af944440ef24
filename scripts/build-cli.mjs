#!/usr/bin/env node
// Builds the CLI into out/cli: plain JavaScript in one CommonJS file (main.cjs) whose modules
// are evaluated only when first imported, so a command runs only what it uses (the OpenAI SDK
// is required only when an LLM is asked, agent code runs only for `agent`, the engine only when
// no service answers), loaded with V8's code cache by load-cli.cjs. Beside it, the thin client
// (out/cli/thin-client.cjs, one small CommonJS file) that bin/deskpilot.js runs first: it has a
// running service of the same build run the command. All carry the build id, a hash of
// everything built, so a client never hands a command to a service of another build.
// Run by `npm install` (the prepare script), by `npm run deskpilot` when a source is newer
// than the build, and by the test suite before it starts.
//   node scripts/build-cli.mjs            build
//   node scripts/build-cli.mjs --if-stale build only when src/ changed since the last build
//   node scripts/build-cli.mjs --outdir D build into D instead (a copy of one build that stays
//                                          that build, for tests and the bench)
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// `deskpilot --version` prints it (src/cli/version.ts).
const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag > 0 ? path.resolve(process.argv[outdirFlag + 1]) : path.join(root, 'out', 'cli');
const entry = path.join(outdir, 'main.cjs');
const thinClient = path.join(outdir, 'thin-client.cjs');
// The Electron shell and the renderer are not part of the CLI.
const SKIP = new Set(['renderer', 'main', 'preload']);

function newestSource(dir, depth = 0) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (depth === 0 && SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p, depth + 1) : statSync(p).mtimeMs);
  }
  return newest;
}

function fresh() {
  try {
    const built = Math.min(statSync(entry).mtimeMs, statSync(thinClient).mtimeMs);
    return built >= newestSource(path.join(root, 'src')) && built >= statSync(path.join(root, 'package.json')).mtimeMs;
  } catch {
    return false;
  }
}

if (process.argv.includes('--if-stale') && fresh()) process.exit(0);

/**
 * chrome-remote-interface ships the whole DevTools protocol (500 KiB of JSON) to build shorthand
 * methods from; DeskPilot hands it a protocol without domains (src/platform/chrome/connect.ts)
 * and never reads that file, so the bundle gets an empty one in its place.
 */
const withoutCdpProtocolFile = {
  name: 'without-cdp-protocol-file',
  setup(b) {
    b.onLoad({ filter: /chrome-remote-interface[\\/]lib[\\/]protocol\.json$/ }, () => ({
      contents: '{"version":{"major":"1","minor":"3"},"domains":[]}',
      loader: 'json',
    }));
  },
};

/**
 * Libraries require Node modules when loaded that a call rarely needs: the WebSocket and
 * DevTools libraries `https` and `tls` (for wss:// and https:// addresses; DevTools is plain
 * ws:// here) and `zlib` (for a compression Chrome does not offer), the argument parser
 * `child_process` (for subcommands in files of their own, which DeskPilot has none of). Loading
 * them cost every call ~8 ms. A library gets a stand-in that requires the real module at its
 * first use; every use in these libraries is at call time (`https.get`, `tls.connect`,
 * `zlib.createInflateRaw`, `childProcess.spawn`), and one at load would only load it then.
 */
const lazyBuiltinsForLibraries = {
  name: 'lazy-builtins-for-libraries',
  setup(b) {
    b.onResolve({ filter: /^(node:)?(https|tls|zlib|child_process)$/ }, (args) =>
      /[\\/]node_modules[\\/]/.test(args.importer) ? { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let real; const load = () => (real ??= require('node:${args.path}'));
module.exports = new Proxy({}, {
  get: (_, k) => load()[k],
  has: (_, k) => k in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, k) => { const d = Reflect.getOwnPropertyDescriptor(load(), k); if (d) d.configurable = true; return d; },
});`,
      loader: 'js',
    }));
    // ws's optional native helpers are not installed: without them ws uses its own JavaScript,
    // and a stand-in that says so spares every call a failed search through node_modules.
    b.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (args) => ({ path: args.path, namespace: 'not-installed' }));
    b.onLoad({ filter: /.*/, namespace: 'not-installed' }, (args) => ({ contents: `throw new Error('${args.path} is not bundled');`, loader: 'js' }));
  },
};

/** The bundles, with `buildId` and the version compiled in. */
async function buildAll(buildId) {
  const common = {
    write: false,
    absWorkingDir: root,
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { __DESKPILOT_BUILD_ID__: JSON.stringify(buildId), __DESKPILOT_VERSION__: JSON.stringify(version) },
  };
  const [cli, thin, loader] = await Promise.all([
    build({
      ...common,
      entryPoints: { main: 'src/cli/main.ts' },
      // One CommonJS file, loaded through V8's code cache (src/cli/load-cli.ts): what a command
      // does not use is never evaluated (esbuild wraps every module in a lazy initialiser that
      // runs at its first import()), and what it uses is compiled once per command, not per call.
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      // Short names: a quarter less text to read and a smaller code cache to load on every call
      // (~10 ms of CPU). Nothing reads a name of DeskPilot's: what a person sees is an error's message.
      minifyIdentifiers: true,
      // Every import() becomes a require(): Node 20 loses a script's dynamic-import hook when the
      // script comes from a code cache ("A dynamic import callback was not specified").
      supported: { 'dynamic-import': false },
      // Native addons stay where npm put them. So do libraries a command may not need, required
      // from node_modules when used: the OpenAI SDK (the heaviest, only when an LLM is asked) and
      // the sync engine's (only for devices); a process's loaded packages then show what it
      // needed (tests/cli/lazy-loading.test.ts). Not zod: the protocol and the MCP SDK must share
      // one copy, and every command needs it anyway. Nor the argument parser: every call uses it,
      // and from node_modules it cost ~8 ms a call (five files found, read and compiled).
      external: [
        'node-window-manager',
        'electron',
        'sqlite3',
        'better-sqlite3',
        'openai',
        'yjs',
        '@hocuspocus/*',
        'ioredis',
        // Info.plist parsers: only macOS reads app bundles (src/platform/apps/info-plist.ts).
        'plist',
        'bplist-parser',
      ],
      // The loader uses a code cache only for the build it was built with (see load-cli.ts).
      footer: { js: `//# deskpilot-build ${buildId}` },
      plugins: [withoutCdpProtocolFile, lazyBuiltinsForLibraries],
    }),
    build({ ...common, entryPoints: { 'thin-client': 'src/cli/thin-client.ts' }, format: 'cjs', outExtension: { '.js': '.cjs' } }),
    build({ ...common, entryPoints: { 'load-cli': 'src/cli/load-cli.ts' }, format: 'cjs', outExtension: { '.js': '.cjs' } }),
  ]);
  return [...cli.outputFiles, ...thin.outputFiles, ...loader.outputFiles];
}

// The build id is a hash of the code built without it, so the same sources always give the
// same id. The code is then built again with the id in it: a chunk holding the id gets a
// name of its own, never one an earlier build's chunk has.
const hash = createHash('sha256');
for (const f of (await buildAll('')).sort((a, b) => a.path.localeCompare(b.path))) hash.update(path.basename(f.path)).update(f.contents);
const buildId = hash.digest('hex').slice(0, 16);
const outputs = await buildAll(buildId);
// The loader reads the bundle as one-byte text (no UTF-8 decoding of megabytes per call), so it
// must be ASCII; esbuild escapes strings, not regular expression literals.
for (const f of outputs) {
  const bad = f.contents.findIndex((b) => b > 0x7f);
  if (bad >= 0) {
    const near = Buffer.from(f.contents.subarray(Math.max(0, bad - 60), bad + 20)).toString('utf8');
    console.error(`build-cli: ${path.basename(f.path)} has a non-ASCII character near ${JSON.stringify(near)}; write it as a \\u escape in the source`);
    process.exit(1);
  }
}

// Written so that a CLI starting meanwhile (tests run in parallel) never sees a half-written
// build: each file is renamed into place, the thin client last.
mkdirSync(outdir, { recursive: true });
const written = new Set();
const entries = [];
for (const f of outputs) {
  written.add(path.basename(f.path));
  entries.push(f);
}
entries.sort((a, b) => Number(a.path === thinClient) - Number(b.path === thinClient));
for (const f of entries) {
  const tmp = `${f.path}.${process.pid}.tmp`;
  writeFileSync(tmp, f.contents);
  renameSync(tmp, f.path);
}
// Files of earlier builds (the chunks of the split ES module build that came before, code caches
// of other build ids): removed once they are an hour old (a CLI started before may still read them).
const codeCache = path.join(outdir, 'code-cache');
const old = (dir, keep) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isFile() && !keep(e.name) && Date.now() - statSync(p).mtimeMs > 3600_000) unlinkSync(p);
  }
};
old(outdir, (name) => written.has(name));
mkdirSync(codeCache, { recursive: true });
old(codeCache, (name) => name.startsWith(`${buildId}-`));
