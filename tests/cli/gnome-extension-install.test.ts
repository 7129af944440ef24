import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, poll, runTool, stopProc, type Proc } from '../support/desktop';
import { runCli } from '../support/cli';
import { assembleExtension } from '../../src/platform/windows/gnome/extension-forms';

// `deskpilot gnome-extension install | status | uninstall` through the real CLI against a temp
// HOME and a private session bus, so gsettings writes a throwaway dconf database (dconf-service is
// started by that bus with the temp HOME): the files land where GNOME Shell looks for a user's
// extensions, the UUID is added to org.gnome.shell enabled-extensions beside the ones already
// there, and the output says a new login is needed.

const UUID = 'deskpilot@deskpilot.app';
const SOURCE = path.join(__dirname, '..', '..', 'gnome-extension', UUID);

function unavailable(): string | null {
  // gnome-shell: install reads its version to choose the extension's form.
  const missing = ['dbus-daemon', 'gsettings', 'gdbus', 'gnome-shell'].filter((c) => {
    try {
      execFileSync('sh', ['-c', `command -v ${c}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length) return `missing ${missing.join(', ')} (apt-get install -y --no-install-recommends dbus libglib2.0-bin gnome-shell)`;
  try {
    execFileSync('gsettings', ['list-keys', 'org.gnome.shell'], { stdio: 'ignore' });
  } catch {
    return 'the org.gnome.shell settings schema is not installed (apt-get install -y --no-install-recommends gnome-shell-common)';
  }
  return null;
}

const reason = unavailable();
const required = process.env.DESKPILOT_REQUIRE_DESKTOP === '1';
const describeIt = reason === null || required ? describe : describe.skip;
if (reason !== null && !required) console.warn(`[gnome-extension install] skipping: ${reason}`);

describeIt('deskpilot gnome-extension install / status / uninstall (temp HOME, private session bus)', () => {
  if (reason !== null) {
    it('needs dbus-daemon, gsettings, gnome-shell and the org.gnome.shell schema (DESKPILOT_REQUIRE_DESKTOP=1)', () => {
      throw new Error(reason);
    });
    return;
  }
  let root: string;
  let bus: Proc;
  let env: NodeJS.ProcessEnv;
  const target = () => path.join(env.HOME!, '.local', 'share', 'gnome-shell', 'extensions', UUID);
  const enabled = () => execFileSync('gsettings', ['get', 'org.gnome.shell', 'enabled-extensions'], { env, encoding: 'utf8' }).trim();

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-gnome-install-'));
    const home = path.join(root, 'home');
    const runtime = path.join(root, 'rt');
    mkdirSync(home);
    mkdirSync(runtime, { mode: 0o700 });
    const address = `unix:path=${path.join(runtime, 'bus')}`;
    env = {
      PATH: process.env.PATH,
      HOME: home,
      XDG_RUNTIME_DIR: runtime,
      DBUS_SESSION_BUS_ADDRESS: address,
      DESKPILOT_CONFIG_DIR: path.join(root, 'config'),
      DESKPILOT_NO_SERVICE: '1',
    };
    bus = await launch('session bus', 'dbus-daemon', ['--session', '--nofork', `--address=${address}`], env);
    await poll('the private session bus', 60_000, [bus], () =>
      runTool('gdbus', ['call', '--session', '-d', 'org.freedesktop.DBus', '-o', '/org/freedesktop/DBus', '-m', 'org.freedesktop.DBus.GetId'], env).then(() => true),
    );
    // Someone else's extension is enabled already: install must keep it.
    execFileSync('gsettings', ['set', 'org.gnome.shell', 'enabled-extensions', "['other@example.org']"], { env });
  });

  afterAll(async () => {
    if (bus) await stopProc(bus);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('install copies the extension into ~/.local/share/gnome-shell/extensions, enables it beside the others, and says to log in again', async () => {
    const r = await runCli(['gnome-extension', 'install'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Installed DeskPilot's GNOME Shell extension in ${target()}`);
    expect(r.stdout).toMatch(/only after you log out and log in again/);
    // This machine's GNOME Shell is 43: the script form, assembled from the shipped sources.
    expect(r.stdout).toContain('For GNOME Shell 43');
    const expected = await assembleExtension(SOURCE, 'legacy');
    expect(readdirSync(target()).sort()).toEqual(['extension.js', 'metadata.json']);
    for (const [file, text] of expected) expect(readFileSync(path.join(target(), file), 'utf8')).toBe(text);
    expect(JSON.parse(readFileSync(path.join(target(), 'metadata.json'), 'utf8'))['shell-version']).toEqual(['43', '44']);
    expect(enabled()).toBe(`['other@example.org', '${UUID}']`);

    const again = await runCli(['gnome-extension', 'install'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Kept (already up to date)');
    expect(enabled()).toBe(`['other@example.org', '${UUID}']`);
  });

  it('status says installed and enabled, but not answering (no GNOME Shell runs here), with the install hint and exit 1', async () => {
    const r = await runCli(['gnome-extension', 'status'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Installed: version 1 in ${target()}`);
    expect(r.stdout).toContain("Enabled in GNOME's settings: yes");
    expect(r.stdout).toMatch(/Answers on the session bus: no — .*install the extension: deskpilot gnome-extension install/);
  });

  it('uninstall disables it (keeping the others) and removes its files', async () => {
    const r = await runCli(['gnome-extension', 'uninstall'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(target())).toBe(false);
    expect(enabled()).toBe("['other@example.org']");
  });

  it('a version that is not one (DESKPILOT_GNOME_SHELL_VERSION) is refused with the reason, and nothing is written', async () => {
    const r = await runCli(['gnome-extension', 'install'], { env: { ...env, DESKPILOT_GNOME_SHELL_VERSION: 'forty-six' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not installed: could not tell which GNOME Shell this is \("forty-six" is not a version\).*GNOME 45 or later need different forms/);
    expect(existsSync(target())).toBe(false);
    expect(enabled()).toBe("['other@example.org']");
  });

  it('for GNOME 46 (DESKPILOT_GNOME_SHELL_VERSION=46) it writes the ES-module form, declaring 45–48 (not run here: Debian 12 has GNOME 43)', async () => {
    const r = await runCli(['gnome-extension', 'install'], { env: { ...env, DESKPILOT_GNOME_SHELL_VERSION: '46.0' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('For GNOME Shell 46.0 (the ES-module form of GNOME 45 and later)');
    for (const [file, text] of await assembleExtension(SOURCE, 'esm')) expect(readFileSync(path.join(target(), file), 'utf8')).toBe(text);
    expect(readFileSync(path.join(target(), 'extension.js'), 'utf8')).toMatch(/^export default class \w+ extends Extension/m);
  });
});
