// Checks the packaging configuration without the Electron runtime (it cannot be downloaded
// here): builds with electron-vite, runs electron-builder for an unpacked Linux app against a
// stand-in Electron distribution, and verifies what ended up in it. Exits non-zero on any
// failure and prints what it verified.
//
//   npm run package:check      (tsx scripts/check-packaging.ts)

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error -- a plain ES module script without types
import { syncServerOnly, SYNC_SERVER_ROOTS } from './sync-server-only-deps.mjs';

const root = path.resolve(__dirname, '..');
const started = Date.now();
const verified: string[] = [];
const failures: string[] = [];
const check = (ok: boolean, what: string, why = '') => (ok ? verified : failures).push(ok ? what : `${what}${why ? `: ${why}` : ''}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** An asar archive's file list and contents, read directly (the format: a pickled JSON header, then the files). */
function openAsar(file: string) {
  const buf = readFileSync(file);
  const headerSize = buf.readUInt32LE(4);
  const jsonLength = buf.readUInt32LE(12);
  const header = JSON.parse(buf.subarray(16, 16 + jsonLength).toString('utf8')) as AsarDir;
  const base = 8 + headerSize;
  const entry = (p: string): AsarEntry | undefined => {
    let node: AsarEntry | undefined = header;
    for (const part of p.split('/')) node = node && 'files' in node ? node.files[part] : undefined;
    return node;
  };
  return {
    has: (p: string) => entry(p) !== undefined,
    unpacked: (p: string) => {
      const e = entry(p);
      return !!e && 'unpacked' in e && e.unpacked === true;
    },
    read: (p: string): Buffer | null => {
      const e = entry(p);
      if (!e || !('offset' in e) || e.unpacked) return null;
      const start = base + Number(e.offset);
      return buf.subarray(start, start + e.size);
    },
  };
}
interface AsarDir {
  files: Record<string, AsarEntry>;
}
type AsarEntry = AsarDir | { offset: string; size: number; unpacked?: boolean } | { size: number; unpacked: true };

function run(label: string, args: string[]): void {
  const t = Date.now();
  try {
    execFileSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, CI: '1' } });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    console.error(`${label} failed:\n${err.stdout ?? ''}${err.stderr ?? err.message}`);
    process.exit(1);
  }
  console.log(`${label}: ${seconds(Date.now() - t)}`);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-package-'));
try {
  run('electron-vite build', [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build']);

  // A stand-in for Electron's unpacked distribution: electron-builder copies it, renames the
  // binary and adds the app; it never runs it for a Linux "dir" target.
  const electronVersion = (JSON.parse(readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
  const dist = path.join(tmp, 'electron-dist');
  mkdirSync(dist);
  writeFileSync(path.join(dist, 'electron'), '#!/bin/sh\necho "stand-in Electron binary (check-packaging)"\n');
  chmodSync(path.join(dist, 'electron'), 0o755);
  writeFileSync(path.join(dist, 'version'), electronVersion);
  writeFileSync(path.join(dist, 'LICENSE'), readFileSync(path.join(root, 'node_modules/electron/LICENSE')));
  const output = path.join(tmp, 'out');

  run('electron-builder --linux dir', [
    path.join(root, 'node_modules/electron-builder/cli.js'),
    '--linux',
    'dir',
    `-c.electronDist=${dist}`,
    '-c.npmRebuild=false',
    `-c.directories.output=${output}`,
  ]);

  const app = path.join(output, 'linux-unpacked');
  const resources = path.join(app, 'resources');
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };

  check(existsSync(path.join(app, 'deskpilot')), 'the executable is linux-unpacked/deskpilot (Electron renamed after the product)');
  check(existsSync(path.join(app, 'version')) && readFileSync(path.join(app, 'version'), 'utf8').trim() === electronVersion, `Electron ${electronVersion} distribution copied`);

  for (const icon of ['tray.png', 'tray@2x.png', 'trayTemplate.png', 'trayTemplate@2x.png']) {
    check(existsSync(path.join(resources, icon)), `resources/${icon} (tray icon, where main looks: process.resourcesPath)`);
  }

  const asarFile = path.join(resources, 'app.asar');
  const appDir = path.join(resources, 'app');
  if (existsSync(asarFile)) {
    const asar = openAsar(asarFile);
    check(true, 'resources/app.asar exists');
    const packed = asar.read('out/main/index.js');
    const built = readFileSync(path.join(root, 'out/main/index.js'));
    check(packed !== null && packed.equals(built), 'app.asar contains out/main/index.js, byte-identical to the build', packed ? 'differs from out/main/index.js' : 'missing');
    check(pkg.main.replace(/^\.\//, '') === 'out/main/index.js' && asar.has('package.json'), 'package.json (main: out/main/index.js) is packed');
    check(asar.has('out/preload/index.js'), 'app.asar contains out/preload/index.js');
    check(asar.has('out/renderer/index.html'), 'app.asar contains out/renderer/index.html');
    check(asar.has('out/main/chunks'), 'app.asar contains the window helper chunk (out/main/chunks)');
    // Only `deskpilot sync-server` needs these; electron-builder.yml leaves them out (see scripts/sync-server-only-deps.mjs).
    const serverOnly: string[] = syncServerOnly(JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')));
    const runtime = Object.keys(pkg.dependencies).filter((d) => !SYNC_SERVER_ROOTS.includes(d));
    const missing = runtime.filter((d) => !asar.has(`node_modules/${d}`));
    check(missing.length === 0, `every runtime dependency of the app is packed (${runtime.length})`, `missing ${missing.join(', ')}`);
    const carried = serverOnly.filter((d) => asar.has(`node_modules/${d}`) || existsSync(path.join(resources, 'app.asar.unpacked/node_modules', d)));
    check(carried.length === 0 && serverOnly.length > 0, `none of the ${serverOnly.length} sync-server-only packages is packed (${SYNC_SERVER_ROOTS.join(', ')}, and what only they pull in)`, `packed: ${carried.join(', ')}`);
    check(!asar.has('node_modules/tsx') && !asar.has('node_modules/esbuild'), 'the dev-only tsx/esbuild are not packed');
    // node-window-manager is installed on macOS and Windows only (packages/native-window-manager).
    if (existsSync(path.join(root, 'node_modules/node-window-manager'))) {
      check(
        asar.unpacked('node_modules/node-window-manager') || existsSync(path.join(resources, 'app.asar.unpacked/node_modules/node-window-manager')),
        'node-window-manager (native addon) is unpacked beside app.asar',
      );
    } else {
      check(!asar.has('node_modules/node-window-manager'), 'node-window-manager (macOS and Windows only) is not installed here, and not packed');
    }
    check(!asar.has('src') && !asar.has('tests'), 'sources and tests are not packed');
  } else if (existsSync(appDir)) {
    check(true, 'resources/app (asar disabled) exists');
    check(existsSync(path.join(appDir, 'out/main/index.js')), 'resources/app contains out/main/index.js');
  } else {
    check(false, 'resources/app.asar or resources/app', 'neither exists');
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

for (const v of verified) console.log(`  ok    ${v}`);
for (const f of failures) console.log(`  FAIL  ${f}`);
console.log(`${failures.length === 0 ? 'packaging check passed' : `packaging check FAILED (${failures.length})`}: ${verified.length} verified in ${seconds(Date.now() - started)}`);
process.exit(failures.length === 0 ? 0 : 1);
