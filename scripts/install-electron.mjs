#!/usr/bin/env node
// `npm run install-electron`: downloads Electron's binary for the app (Electron 45's npm package
// no longer does at install). It runs Electron's own installer (the `install-electron` command of
// the electron package), and when that fails — no network, a proxy, an unreachable host — says so
// in plain words and what to do, instead of the installer's raw "TypeError: fetch failed" stack.
// DESKPILOT_DEBUG=1 shows that stack too.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
let dir;
try {
  dir = path.dirname(require.resolve('electron/package.json'));
} catch {
  process.stderr.write('deskpilot: the electron package is not installed: run `npm install` in the DeskPilot folder first\n');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
const target = `${process.env.ELECTRON_INSTALL_PLATFORM || process.platform}-${process.env.ELECTRON_INSTALL_ARCH || process.arch}`;

const child = spawn(process.execPath, [path.join(dir, 'install.js')], { stdio: ['ignore', 'inherit', 'pipe'] });
let stderr = '';
child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
child.on('close', (code, signal) => {
  if (code === 0) {
    process.stdout.write(`Electron ${version} is installed (${target}); start the app with \`npm start\`\n`);
    return;
  }
  // The installer prints an error's stack: its first line says what failed; a cause may follow.
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const what = lines.find((l) => !l.startsWith('at ')) ?? (signal ? `stopped by ${signal}` : `exit code ${code}`);
  const cause = lines.find((l) => /^\[cause\]|cause:|getaddrinfo|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|certificate/i.test(l) && l !== what);
  process.stderr.write(
    `deskpilot: could not download Electron ${version} for ${target}: ${what}${cause ? ` (${cause.replace(/^\[cause\]:?\s*/, '')})` : ''}.\n` +
      '  The download needs the internet (Electron comes from its GitHub releases). Check the connection;\n' +
      '  behind a proxy set HTTPS_PROXY; or set ELECTRON_MIRROR to a mirror you can reach. Then run\n' +
      '  `npm run install-electron` again. Everything but the tray app works without it: `deskpilot --help`.\n' +
      (process.env.DESKPILOT_DEBUG === '1' ? `\nThe installer said:\n${stderr}` : ''),
  );
  process.exitCode = 1;
});
