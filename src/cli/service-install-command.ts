import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultConfigDir } from '../platform/config/config-dir';
import type { ConfigFlags } from '../platform/config/load-config';
import { launchAgentPlist, systemdUnit, UnitArgumentError, unitLocation } from '../platform/service/unit-files';
import { disableCommands, enableCommands, notOurs, onPath, removeUnit, runManagerCommands, shellLine, UnitFileError, unitState, writeUnit } from '../platform/service/unit-install';
import { EXIT } from './exit-codes';
import type { Io } from './io';

// `deskpilot service install` / `uninstall`: the unit that starts the service with the
// user's session (systemd on Linux, launchd on macOS), enabled at once unless --no-enable.

export interface InstallEnv {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  uid: number;
  /** The Node binary and bin/deskpilot.js, absolute: a unit has no PATH to find them. */
  node: string;
  bin: string;
}

export function installEnv(): InstallEnv {
  return { platform: process.platform, env: process.env, home: os.homedir(), uid: os.userInfo().uid, node: process.execPath, bin: deskpilotBin() };
}

/** bin/deskpilot.js beside these sources (src/cli) or the compiled CLI (out/cli). */
function deskpilotBin(): string {
  const found = ['../..', '../../..'].map((up) => path.resolve(__dirname, up, 'bin', 'deskpilot.js')).find((p) => existsSync(p));
  return found ?? path.resolve(process.argv[1] ?? 'deskpilot');
}

const MANAGER = { systemd: 'systemctl', launchd: 'launchctl' } as const;

export async function runServiceInstall(flags: ConfigFlags, opts: { enable: boolean }, io: Io, e: InstallEnv = installEnv()): Promise<number> {
  const loc = unitLocation(e.platform, e.env, e.home);
  if (!loc) {
    io.err('deskpilot: `service install` is not supported on Windows yet; start `deskpilot service` from a shortcut in your Startup folder instead\n');
    return EXIT.failed;
  }
  const chosen = flags.configDir || e.env.DESKPILOT_CONFIG_DIR;
  const configDir = chosen ? path.resolve(chosen) : defaultConfigDir(e.env, e.platform, e.home);
  // The unit runs without this shell's environment (DESKPILOT_CONFIG_DIR, XDG_CONFIG_HOME):
  // it names the config folder unless that is the default without them.
  const line = { node: e.node, bin: e.bin, configDir: configDir === defaultConfigDir({}, e.platform, e.home) ? undefined : configDir };
  let outcome;
  try {
    const content = loc.kind === 'systemd' ? systemdUnit(line) : launchAgentPlist(line, path.join(e.home, 'Library', 'Logs', 'DeskPilot', 'service.log'));
    outcome = await writeUnit(loc.file, content);
  } catch (err) {
    if (!(err instanceof UnitFileError || err instanceof UnitArgumentError)) throw err;
    io.err(`deskpilot: ${err.message}\n`);
    return EXIT.failed;
  }
  const verb = { created: 'Wrote', replaced: 'Updated', unchanged: 'Kept (already up to date)' }[outcome];
  io.out(`${verb} ${loc.file}: it starts \`deskpilot service\`${line.configDir ? ` for ${line.configDir}` : ''} ${loc.kind === 'systemd' ? 'with your graphical session' : 'at login'}.\n`);
  if (loc.kind === 'systemd') {
    io.out('  It needs DISPLAY from your session: desktops that start graphical-session.target (GNOME, KDE Plasma, …) provide it;\n' +
      '  elsewhere run `systemctl --user import-environment DISPLAY XAUTHORITY` first.\n');
  }
  const cmds = enableCommands(loc, e.uid, outcome);
  const manual = shellLine(cmds).replace(`gui/${e.uid}`, 'gui/$(id -u)');
  const tool = MANAGER[loc.kind];
  if (!opts.enable) {
    io.out(`To start it now and at every login: ${manual}\n`);
    return EXIT.ok;
  }
  if (!onPath(tool, e.env)) {
    io.out(`${tool} was not found, so nothing was enabled${loc.kind === 'systemd' ? ' (this system may not use systemd: start `deskpilot service` from your session\'s autostart instead)' : ''}.\n`);
    return EXIT.ok;
  }
  const ran = await runManagerCommands(cmds, e.env);
  if (!ran.ok) {
    io.err(`deskpilot: the unit is written, but \`${ran.failed}\` failed: ${ran.why}\n  Enable it from a terminal in your desktop session with: ${manual}\n`);
    return EXIT.failed;
  }
  io.out(`Enabled and started it (${manual}); \`deskpilot service status\` shows it.\n`);
  return EXIT.ok;
}

export async function runServiceUninstall(opts: { disable: boolean }, io: Io, e: InstallEnv = installEnv()): Promise<number> {
  const loc = unitLocation(e.platform, e.env, e.home);
  if (!loc) {
    io.err('deskpilot: `service uninstall` is not supported on Windows (there is nothing `service install` could have written)\n');
    return EXIT.failed;
  }
  try {
    const state = await unitState(loc.file);
    if (state === 'absent') {
      io.out(`No DeskPilot service unit at ${loc.file}; nothing to remove.\n`);
      return EXIT.ok;
    }
    if (state === 'theirs') throw notOurs(loc.file, 'removed');
    // Stopped and disabled while systemd still knows the unit; a failure here does not keep the file.
    const { before, after } = disableCommands(loc, e.uid);
    const manage = opts.disable && onPath(MANAGER[loc.kind], e.env) !== null;
    const stopped = manage ? await runManagerCommands(before, e.env) : null;
    await removeUnit(loc);
    const reloaded = manage ? await runManagerCommands(after, e.env) : null;
    io.out(`Removed ${loc.file}${stopped?.ok ? ' (stopped and disabled it first)' : ''}.\n`);
    for (const r of [stopped, reloaded]) if (r && !r.ok) io.err(`note: \`${r.failed}\` failed: ${r.why}\n`);
    if (stopped && !stopped.ok) io.err(`  If a service started by it still runs, stop it from your desktop session: ${shellLine(before).replace(`gui/${e.uid}`, 'gui/$(id -u)')}\n`);
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof UnitFileError)) throw err;
    io.err(`deskpilot: ${err.message}\n`);
    return EXIT.failed;
  }
}
