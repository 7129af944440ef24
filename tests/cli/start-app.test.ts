import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` (scripts/start-app.mjs): with no Electron binary it says how to get one instead of
// electron-vite's bare "Electron uninstall"; with one it hands over to `electron-vite preview`.

const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'start-app.mjs');

function startApp(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const { ELECTRON_EXEC_PATH: _ignored, ...baseEnv } = process.env;
const electronDownloaded = (() => {
  const dir = path.join(ROOT, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  return existsSync(pathFile) && existsSync(path.join(dir, 'dist', readFileSync(pathFile, 'utf8')));
})();

describe('npm start (scripts/start-app.mjs)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-start-app-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an ELECTRON_EXEC_PATH that does not exist is named, with how to get Electron; exit 1', async () => {
    const missing = path.join(dir, 'no-electron-here');
    const r = await startApp([], { ...baseEnv, ELECTRON_EXEC_PATH: missing });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`deskpilot: cannot start the app: ELECTRON_EXEC_PATH is set to ${missing}, which does not exist.`);
    expect(r.stderr).toContain('npm run install-electron');
    expect(r.stdout).toBe('');
  });

  it.skipIf(electronDownloaded)('without the downloaded binary it says so and how to get it, and downloads nothing by itself', async () => {
    const r = await startApp([], baseEnv);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^deskpilot: cannot start the app: Electron's binary was not downloaded \(nothing at .*node_modules\/electron\/dist\)\.\n/);
    expect(r.stderr).toContain('Download it once with `npm run install-electron`');
    expect(r.stdout).not.toContain('Downloading Electron binary');
  });

  it('with a binary (a fake Electron: no Electron runtime here) it runs electron-vite preview and passes the exit code on', async () => {
    const fake = path.join(dir, 'fake-electron');
    const record = path.join(dir, 'fake-electron.args');
    writeFileSync(fake, `#!/bin/sh\necho "$@" > ${JSON.stringify(record)}\nexit 7\n`);
    chmodSync(fake, 0o755);
    // --skipBuild: electron-vite starts Electron on the app folder without building it first.
    const r = await startApp(['--skipBuild'], { ...baseEnv, ELECTRON_EXEC_PATH: fake });
    expect(r.stderr).not.toContain('cannot start the app');
    expect(r.code).toBe(7);
    expect(readFileSync(record, 'utf8').trim()).toBe('.');
  });
});

describe('npm run install-electron (scripts/install-electron.mjs)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-install-electron-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Electron's own installer printed a raw "TypeError: fetch failed" stack when the download failed.
  it.skipIf(electronDownloaded)('a download that fails is said plainly, with what to do, and no stack; exit 1', async () => {
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      // A mirror nobody listens on, and an empty download cache: the download fails here for certain.
      const env = { ...baseEnv, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: dir };
      const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'install-electron.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^deskpilot: could not download Electron \d+\.\d+\.\d+ for \w+-\w+: /);
    expect(r.stderr).toContain('set ELECTRON_MIRROR');
    expect(r.stderr).toContain('`npm run install-electron` again');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
