#!/usr/bin/env node
// The packages only `deskpilot sync-server` needs — the Hocuspocus server and its SQLite and
// Redis extensions, the better-sqlite3 and sqlite3 addons (sqlite3 with node-gyp's whole tree), the Redis client — and
// everything only they pull in, computed from package-lock.json. The Electron app never loads
// them, so electron-builder.yml leaves them out of the packaged app: its `files` carry one
// exclusion per package, between the markers below, written by this script.
//   node scripts/sync-server-only-deps.mjs           print them
//   node scripts/sync-server-only-deps.mjs --write   rewrite the block in electron-builder.yml
// tests/build/packaging-excludes.test.ts fails when the block and the lockfile disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The dependencies only the sync server uses (src/cli/sync-server-command.ts and what it loads). */
export const SYNC_SERVER_ROOTS = ['@hocuspocus/server', '@hocuspocus/extension-sqlite', '@hocuspocus/extension-redis', 'better-sqlite3', 'sqlite3'];
export const BEGIN = '  # BEGIN sync-server-only: written by `node scripts/sync-server-only-deps.mjs --write`';
export const END = '  # END sync-server-only';

/** Top-level package names (node_modules/<name>) that only the sync server's dependencies reach. */
export function syncServerOnly(lock) {
  const packages = lock.packages;
  // Node's resolution: the nearest node_modules/<name> up from the requiring package.
  const resolve = (from, name) => {
    for (let dir = from; ; ) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!dir) return null;
      const i = dir.lastIndexOf('/node_modules/');
      dir = i < 0 ? '' : dir.slice(0, i);
    }
  };
  const closure = (names) => {
    const seen = new Set();
    const todo = names.map((n) => resolve('', n)).filter(Boolean);
    while (todo.length) {
      const p = todo.pop();
      if (seen.has(p)) continue;
      seen.add(p);
      // Peers too: npm installs them (the Redis extension's lock library brings its own ioredis so).
      const { dependencies = {}, optionalDependencies = {}, peerDependencies = {} } = packages[p];
      for (const d of Object.keys({ ...dependencies, ...optionalDependencies, ...peerDependencies })) {
        const r = resolve(p, d);
        if (r) todo.push(r);
      }
    }
    return seen;
  };
  const runtime = Object.keys(packages[''].dependencies ?? {});
  const app = closure(runtime.filter((d) => !SYNC_SERVER_ROOTS.includes(d)));
  return [...closure(runtime)]
    .filter((p) => !app.has(p) && !p.slice('node_modules/'.length).includes('/node_modules/'))
    .map((p) => p.slice('node_modules/'.length))
    .sort();
}

/** The `files` lines between the markers. */
export const exclusionBlock = (names) => [BEGIN, ...names.map((n) => `  - '!node_modules/${n}/**'`), END].join('\n');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = syncServerOnly(JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')));
  if (!process.argv.includes('--write')) {
    console.log(names.join('\n'));
  } else {
    const file = path.join(root, 'electron-builder.yml');
    const yml = readFileSync(file, 'utf8');
    const start = yml.indexOf(BEGIN);
    const end = yml.indexOf(END);
    if (start < 0 || end < start) {
      console.error(`sync-server-only-deps: electron-builder.yml has no block between "${BEGIN.trim()}" and "${END.trim()}" in files`);
      process.exit(1);
    }
    writeFileSync(file, yml.slice(0, start) + exclusionBlock(names) + yml.slice(end + END.length));
    console.log(`electron-builder.yml: ${names.length} sync-server-only packages left out of the app`);
  }
}
