import { execFile } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServiceInstall, runServiceUninstall } from '../../src/cli/service-install-command';
import type { Io } from '../../src/cli/io';
import { unitLocation } from '../../src/platform/service/unit-files';
import { onPath } from '../../src/platform/service/unit-install';
import { CLI, runCli } from '../support/cli';
import { spawnService } from './service-process';

// `deskpilot service install` / `uninstall` as a user runs them: the real CLI writing into a
// temporary home. Nothing here ever calls the real systemctl (it would enable a unit for the
// user running the tests); the enable path runs against a fake systemctl on PATH.

const VERIFY = onPath('systemd-analyze');

function verify(file: string, runtimeDir: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    // --user needs a runtime directory; the unit file is checked as systemd would load it.
    execFile('systemd-analyze', ['--user', 'verify', file], { env: { ...process.env, XDG_RUNTIME_DIR: runtimeDir } }, (err, _out, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stderr }),
    );
  });
}

describe('deskpilot service install / uninstall (Linux, systemd user unit)', () => {
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  let configDir: string;
  let unitFile: string;
  let runtimeDir: string;
  let fakeBin: string;
  let fakeLog: string;

  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-install-'));
    configDir = path.join(tmp, 'deskpilot-config');
    runtimeDir = path.join(tmp, 'run');
    mkdirSync(runtimeDir, { mode: 0o700 });
    fakeBin = path.join(tmp, 'fake-bin');
    fakeLog = path.join(tmp, 'systemctl.log');
    mkdirSync(fakeBin);
    // A fake systemctl: records each call; fails when FAKE_SYSTEMCTL_FAIL names the call's verb.
    writeFileSync(
      path.join(fakeBin, 'systemctl'),
      `#!/bin/sh\necho "$*" >> '${fakeLog}'\nfor a in "$@"; do if [ "$a" = "$FAKE_SYSTEMCTL_FAIL" ]; then echo "Failed to connect to bus: fake" >&2; exit 1; fi; done\n`,
    );
    chmodSync(path.join(fakeBin, 'systemctl'), 0o755);
    // XDG_CONFIG_HOME is honoured: the unit goes there, not under HOME.
    env = { ...process.env, HOME: path.join(tmp, 'home'), XDG_CONFIG_HOME: path.join(tmp, 'xdg'), DESKPILOT_CONFIG_DIR: configDir };
    delete env.XDG_RUNTIME_DIR;
    unitFile = path.join(tmp, 'xdg', 'systemd', 'user', 'deskpilot.service');
  });

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const withFake = (extra: NodeJS.ProcessEnv = {}) => ({ ...env, PATH: `${fakeBin}${path.delimiter}${env.PATH}`, ...extra });
  const fakeCalls = () => (existsSync(fakeLog) ? readFileSync(fakeLog, 'utf8').trim().split('\n') : []);

  it('--no-enable writes the unit with absolute paths and the config folder, and says how to enable it', async () => {
    const r = await runCli(['service', 'install', '--no-enable'], { env: withFake() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Wrote ${unitFile}`);
    expect(r.stdout).toContain('systemctl --user daemon-reload && systemctl --user enable --now deskpilot');
    const unit = readFileSync(unitFile, 'utf8');
    expect(unit).toContain(`\nExecStart=${process.execPath} --max-semi-space-size=2 ${CLI} service --config-dir ${configDir}\n`);
    expect(unit).toContain('\nRestart=on-failure\n');
    expect(fakeCalls()).toEqual([]);
  });

  it.skipIf(!VERIFY)('the written unit passes systemd-analyze verify (and a broken copy does not)', async () => {
    const ok = await verify(unitFile, runtimeDir);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    // The check can fail: the same unit with a node that does not exist is refused.
    const broken = path.join(tmp, 'broken', 'deskpilot.service');
    mkdirSync(path.dirname(broken), { recursive: true });
    writeFileSync(broken, readFileSync(unitFile, 'utf8').replace(`ExecStart=${process.execPath}`, 'ExecStart=/nonexistent/node'));
    const bad = await verify(broken, runtimeDir);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('/nonexistent/node');
  });

  it("the unit's ExecStart starts a service that answers on the socket", async () => {
    const execStart = /\nExecStart=(.+)\n/.exec(readFileSync(unitFile, 'utf8'))![1]!;
    // No quoting in this line (the test paths have no spaces): systemd splits it on spaces.
    const svc = spawnService(env, execStart.split(' '));
    try {
      await svc.listening;
      const status = await runCli(['service', 'status'], { env });
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(`(pid ${svc.pid})`);
      // The service runs with the unit's Node options (a small young generation).
      expect(readFileSync(`/proc/${svc.pid}/cmdline`, 'utf8').split('\0')).toContain('--max-semi-space-size=2');
    } finally {
      await svc.stop();
    }
  }, 120_000);

  it('install enables and starts it with systemctl --user (fake systemctl)', async () => {
    rmSync(fakeLog, { force: true });
    const r = await runCli(['service', 'install'], { env: withFake() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Enabled and started it');
    expect(fakeCalls()).toEqual(['--user daemon-reload', '--user enable --now deskpilot']);
  });

  it('when systemctl fails, the unit stays written and the error says how to enable it by hand (fake systemctl)', async () => {
    rmSync(fakeLog, { force: true });
    const r = await runCli(['service', 'install'], { env: withFake({ FAKE_SYSTEMCTL_FAIL: 'daemon-reload' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the unit is written, but `systemctl --user daemon-reload` failed: Failed to connect to bus: fake');
    expect(r.stderr).toContain('systemctl --user daemon-reload && systemctl --user enable --now deskpilot');
    expect(existsSync(unitFile)).toBe(true);
  });

  it('installing again for another config folder updates our unit and restarts a running service (fake systemctl)', async () => {
    rmSync(fakeLog, { force: true });
    const other = path.join(tmp, 'other-config');
    const r = await runCli(['service', 'install'], { env: withFake({ DESKPILOT_CONFIG_DIR: other }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Updated ${unitFile}`);
    expect(readFileSync(unitFile, 'utf8')).toContain(`service --config-dir ${other}\n`);
    expect(fakeCalls()).toEqual(['--user daemon-reload', '--user enable --now deskpilot', '--user try-restart deskpilot']);
  });

  it('uninstall stops and disables it, removes the unit and its enable link (fake systemctl)', async () => {
    const wants = path.join(path.dirname(unitFile), 'graphical-session.target.wants');
    mkdirSync(wants, { recursive: true });
    symlinkSync(unitFile, path.join(wants, 'deskpilot.service'));
    rmSync(fakeLog, { force: true });
    const r = await runCli(['service', 'uninstall'], { env: withFake() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Removed ${unitFile} (stopped and disabled it first)`);
    expect(existsSync(unitFile)).toBe(false);
    expect(() => lstatSync(path.join(wants, 'deskpilot.service'))).toThrow();
    expect(fakeCalls()).toEqual(['--user disable --now deskpilot', '--user daemon-reload']);

    const again = await runCli(['service', 'uninstall'], { env: withFake() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to remove');
  });

  it('never replaces or removes a deskpilot.service that DeskPilot did not write', async () => {
    const theirs = '[Unit]\nDescription=my own deskpilot\n\n[Service]\nExecStart=/bin/true\n';
    mkdirSync(path.dirname(unitFile), { recursive: true });
    writeFileSync(unitFile, theirs);
    rmSync(fakeLog, { force: true });
    for (const args of [['service', 'install'], ['service', 'uninstall']]) {
      const r = await runCli(args, { env: withFake() });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${unitFile} was not written by DeskPilot`);
      expect(readFileSync(unitFile, 'utf8')).toBe(theirs);
    }
    expect(fakeCalls()).toEqual([]);
  });
});

describe('which config folder the unit names', () => {
  const io: Io = { out: () => undefined, err: () => undefined, readStdin: async () => '', interactive: () => false, ask: async () => '' };

  it('names it only when the service, without this shell\'s environment, would not find it by itself', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-unitdir-'));
    const install = async (env: NodeJS.ProcessEnv) => {
      const e = { platform: 'linux' as const, env, home, uid: 1000, node: '/usr/bin/node', bin: '/opt/dp/bin/deskpilot.js' };
      expect(await runServiceInstall({}, { enable: false }, io, e)).toBe(0);
      return /\nExecStart=(.+)\n/.exec(readFileSync(unitLocation('linux', env, home)!.file, 'utf8'))![1];
    };
    try {
      expect(await install({})).toBe('/usr/bin/node --max-semi-space-size=2 /opt/dp/bin/deskpilot.js service');
      // A config folder found through XDG_CONFIG_HOME: systemd's environment may not have it.
      const xdg = path.join(home, 'xdg');
      expect(await install({ XDG_CONFIG_HOME: xdg })).toBe(`/usr/bin/node --max-semi-space-size=2 /opt/dp/bin/deskpilot.js service --config-dir ${xdg}/deskpilot`);
      expect(await install({ DESKPILOT_CONFIG_DIR: path.join(home, '.config', 'deskpilot') })).toBe('/usr/bin/node --max-semi-space-size=2 /opt/dp/bin/deskpilot.js service');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

// launchd does not exist here: the macOS path is checked by the file it writes (content only).
describe('deskpilot service install on macOS (content only: launchd cannot run here)', () => {
  it('writes the LaunchAgent into ~/Library/LaunchAgents and says how to load it', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-macos-'));
    try {
      let out = '';
      const io: Io = { out: (t) => void (out += t), err: (t) => void (out += t), readStdin: async () => '', interactive: () => false, ask: async () => '' };
      const e = { platform: 'darwin' as const, env: {}, home, uid: 501, node: '/usr/local/bin/node', bin: '/Applications/dp/bin/deskpilot.js' };
      expect(await runServiceInstall({}, { enable: false }, io, e)).toBe(0);
      const file = path.join(home, 'Library', 'LaunchAgents', 'app.deskpilot.service.plist');
      const plist = readFileSync(file, 'utf8');
      // The default config folder on macOS is not named: the agent finds it by itself.
      expect(plist).toContain('<string>/usr/local/bin/node</string>\n    <string>--max-semi-space-size=2</string>\n    <string>/Applications/dp/bin/deskpilot.js</string>\n    <string>service</string>\n  </array>');
      expect(plist).toContain('<key>RunAtLoad</key>\n  <true/>');
      expect(out).toContain(`launchctl bootstrap gui/$(id -u) ${file}`);
      expect(await runServiceUninstall({ disable: false }, io, e)).toBe(0);
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
