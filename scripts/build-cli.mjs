#!/usr/bin/env node
// Builds the CLI into out/cli: plain JavaScript, ES modules split at every dynamic import(),
// so a command loads only what it uses (the OpenAI SDK only when an LLM is asked, agent
// code only for `agent`, the engine only when no service answers). Beside it, the thin
// client (out/cli/thin-client.cjs, one small CommonJS file) that bin/deskpilot.js runs first:
// it has a running service of the same build run the command. Both carry the build id, a hash
// of everything built, so a client never hands a command to a service of another build.
// Run by `npm install` (the prepare script), by `npm run deskpilot` when a source is newer
// than the build, and by the test suite before it starts.
//   node scripts/build-cli.mjs            build
//   node scripts/build-cli.mjs --if-stale build only when src/ changed since the last build
//   node scripts/build-cli.mjs --outdir D build into D instead (a copy of one build that stays
//                                          that build, for tests and the bench)
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag > 0 ? path.resolve(process.argv[outdirFlag + 1]) : path.join(root, 'out', 'cli');
const entry = path.join(outdir, 'main.mjs');
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

/** Both bundles, with `buildId` compiled in. */
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
    define: { __DESKPILOT_BUILD_ID__: JSON.stringify(buildId) },
  };
  const [cli, thin] = await Promise.all([
    build({
      ...common,
      entryPoints: { main: 'src/cli/main.ts' },
      splitting: true,
      format: 'esm',
      outExtension: { '.js': '.mjs' },
      // Native addons and the helper process script stay where npm put them.
      external: ['node-window-manager', 'electron', 'sqlite3'],
      // Bundled CommonJS dependencies still call require() and read __dirname.
      banner: {
        js: [
          "import { createRequire as __cr } from 'node:module';",
          "import { fileURLToPath as __fu } from 'node:url';",
          "import { dirname as __dn } from 'node:path';",
          'const require = __cr(import.meta.url);',
          'const __filename = __fu(import.meta.url);',
          'const __dirname = __dn(__filename);',
        ].join(''),
      },
    }),
    build({ ...common, entryPoints: { 'thin-client': 'src/cli/thin-client.ts' }, format: 'cjs', outExtension: { '.js': '.cjs' } }),
  ]);
  return [...cli.outputFiles, ...thin.outputFiles];
}

// The build id is a hash of the code built without it, so the same sources always give the
// same id. The code is then built again with the id in it: a chunk holding the id gets a
// name of its own, never one an earlier build's chunk has.
const hash = createHash('sha256');
for (const f of (await buildAll('')).sort((a, b) => a.path.localeCompare(b.path))) hash.update(path.basename(f.path)).update(f.contents);
const outputs = await buildAll(hash.digest('hex').slice(0, 16));

// Written so that a CLI starting meanwhile (tests run in parallel) never sees a half-written
// build: chunks have content-hashed names and go first; each entry file is renamed into
// place, the thin client last.
mkdirSync(outdir, { recursive: true });
const written = new Set();
const entries = [];
for (const f of outputs) {
  written.add(path.basename(f.path));
  if (path.basename(f.path).startsWith('chunk-')) writeFileSync(f.path, f.contents);
  else entries.push(f);
}
entries.sort((a, b) => Number(a.path === thinClient) - Number(b.path === thinClient));
for (const f of entries) {
  const tmp = `${f.path}.${process.pid}.tmp`;
  writeFileSync(tmp, f.contents);
  renameSync(tmp, f.path);
}
// Chunks of earlier builds: removed once they are an hour old (a CLI started before this build may still load them).
for (const name of readdirSync(outdir)) {
  const p = path.join(outdir, name);
  if (!written.has(name) && Date.now() - statSync(p).mtimeMs > 3600_000) unlinkSync(p);
}
