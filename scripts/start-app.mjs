#!/usr/bin/env node
// `npm start`: builds and starts the Electron app (electron-vite preview), after checking that
// Electron's binary is there. Electron 45 no longer downloads it when npm installs the package
// (it does on first use, or with `npm run install-electron`), and without it electron-vite only says
// "Electron uninstall". Arguments are passed on to electron-vite.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Where electron-vite will look for Electron (the same rules), or why it will not find it. */
function electronBinary() {
  const override = process.env.ELECTRON_EXEC_PATH;
  if (override) return existsSync(override) ? { ok: true } : { ok: false, why: `ELECTRON_EXEC_PATH is set to ${override}, which does not exist` };
  let dir;
  try {
    dir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { ok: false, why: 'the electron package is not installed (run `npm install` in the DeskPilot folder)' };
  }
  const pathFile = path.join(dir, 'path.txt');
  const binary = existsSync(pathFile) ? path.join(dir, 'dist', readFileSync(pathFile, 'utf8')) : null;
  if (binary && existsSync(binary)) return { ok: true };
  return { ok: false, why: `Electron's binary was not downloaded (nothing at ${binary ?? path.join(dir, 'dist')})` };
}

const found = electronBinary();
if (!found.ok) {
  process.stderr.write(
    `deskpilot: cannot start the app: ${found.why}.\n` +
      '  Download it once with `npm run install-electron` (it fetches the Electron release for this platform),\n' +
      '  or reinstall it: `rm -rf node_modules/electron && npm install && npm run install-electron`.\n' +
      '  Behind a proxy or mirror, set ELECTRON_MIRROR; to use an Electron you already have, set ELECTRON_EXEC_PATH to its binary.\n' +
      '  The CLI needs no Electron: `deskpilot --help`.\n',
  );
  process.exit(1);
}

const pkg = path.dirname(require.resolve('electron-vite/package.json'));
const child = spawn(process.execPath, [path.join(pkg, 'bin', 'electron-vite.js'), 'preview', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
