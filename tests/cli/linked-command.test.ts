import { execFile } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm install && npm link` is how the README puts `deskpilot` on the PATH. Here `npm link` runs
// for real, into a temporary global prefix (npm_config_prefix) with a temporary npm cache, so
// nothing outside the temp folder changes; then the linked command runs as a shell would run it.
// --ignore-scripts: the test suite built the CLI already (tests/support/build-cli.global.ts);
// the prepare script would only build it again.

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('deskpilot as a command on the PATH (npm link)', () => {
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-link-'));
    env = {
      // This test's Node first, so npm and the command's `#!/usr/bin/env node` use it.
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: tmp,
      npm_config_prefix: path.join(tmp, 'prefix'),
      npm_config_cache: path.join(tmp, 'npm-cache'),
      npm_config_update_notifier: 'false',
      DESKPILOT_CONFIG_DIR: path.join(tmp, 'config'),
      DESKPILOT_NO_SERVICE: '1',
    };
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('npm link puts a deskpilot command in the prefix that prints the version', async () => {
    await run('npm', ['link', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: ROOT, env });
    const command = path.join(tmp, 'prefix', 'bin', 'deskpilot');
    expect(lstatSync(command).isSymbolicLink()).toBe(true);
    expect(realpathSync(command)).toBe(realpathSync(path.join(ROOT, 'bin', 'deskpilot.js')));
    const r = await run(command, ['--version'], { cwd: tmp, env });
    expect(r.stdout).toBe(`${VERSION}\n`);
  });

  it('npm run deskpilot still works', async () => {
    const r = await run('npm', ['run', '-s', 'deskpilot', '--', '--version'], { cwd: ROOT, env });
    expect(r.stdout).toBe(`${VERSION}\n`);
  });
});
