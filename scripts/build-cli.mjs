#!/usr/bin/env node
// Builds the CLI into out/cli: plain JavaScript, ES modules split at every dynamic import(),
// so a command loads only what it uses (the OpenAI SDK only when an LLM is asked, agent
// code only for `agent`, the engine only when no service answers). Run by `npm install`
// (the prepare script), by `npm run deskpilot` when a source is newer than the build, and
// by the test suite before it starts.
//   node scripts/build-cli.mjs            build
//   node scripts/build-cli.mjs --if-stale build only when src/ changed since the last build
import { build } from 'esbuild';
import { mkdirSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'out', 'cli');
const entry = path.join(outdir, 'main.mjs');
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
    const built = statSync(entry).mtimeMs;
    return built >= newestSource(path.join(root, 'src')) && built >= statSync(path.join(root, 'package.json')).mtimeMs;
  } catch {
    return false;
  }
}

if (process.argv.includes('--if-stale') && fresh()) process.exit(0);

const result = await build({
  write: false,
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  // Native addons and the helper process script stay where npm put them.
  external: ['node-window-manager', 'electron', 'sqlite3'],
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
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
});

// Written so that a CLI starting meanwhile (tests run in parallel) never sees a half-written
// build: chunks have content-hashed names and go first; each entry file is renamed into place.
mkdirSync(outdir, { recursive: true });
const written = new Set();
const entries = [];
for (const f of result.outputFiles) {
  written.add(path.basename(f.path));
  if (path.basename(f.path).startsWith('chunk-')) writeFileSync(f.path, f.contents);
  else entries.push(f);
}
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
