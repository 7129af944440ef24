import { execFile } from 'node:child_process';
import os from 'node:os';
import { errorMessage } from '../engine/errors';
import { EXTENSION_UUID } from '../platform/windows/gnome/extension-answers';
import { extensionFormFor } from '../platform/windows/gnome/extension-forms';
import {
  copyExtension,
  extensionSourceDir,
  extensionTargetDir,
  formatStringArray,
  installedVersion,
  readShellSettings,
  removeExtension,
  setEnabled,
} from '../platform/windows/gnome/extension-install';
import { onPath } from '../platform/service/unit-install';
import { EXIT } from './exit-codes';
import type { Io } from './io';

// `deskpilot gnome-extension install | uninstall | status`: GNOME on Wayland lets no program
// move another's windows, so DeskPilot's window commands there go through its own GNOME Shell
// extension. These put it in place, enable it, and say plainly what GNOME still needs (a new login).

export interface GnomeExtensionEnv {
  env: NodeJS.ProcessEnv;
  home: string;
  /** The extension folder to install; default: the one shipped with DeskPilot. */
  source?: string | null;
}

const RELOGIN =
  'GNOME Shell on Wayland loads a newly installed extension only after you log out and log in again (on an X11 session, Alt+F2 then r restarts the shell instead).';

function defaultEnv(): GnomeExtensionEnv {
  return { env: process.env, home: os.homedir() };
}

export async function runGnomeExtensionInstall(io: Io, e: GnomeExtensionEnv = defaultEnv()): Promise<number> {
  const source = e.source === undefined ? extensionSourceDir() : e.source;
  if (!source) {
    io.err(`deskpilot: the GNOME extension's files (gnome-extension/${EXTENSION_UUID}) are not part of this DeskPilot installation\n`);
    return EXIT.failed;
  }
  // GNOME 43/44 and 45+ load different forms of extension.js: the running shell's version picks one.
  const running = e.env.DESKPILOT_GNOME_SHELL_VERSION?.trim() || (await shellVersion(e.env));
  const choice = extensionFormFor(running);
  if (choice.form === null) {
    io.err(`deskpilot: not installed: ${choice.problem}\n`);
    return EXIT.failed;
  }
  const target = extensionTargetDir(e.env, e.home);
  let outcome;
  try {
    outcome = await copyExtension(source, target, choice.form);
  } catch (err) {
    io.err(`deskpilot: could not copy the extension to ${target}: ${errorMessage(err)}\n`);
    return EXIT.failed;
  }
  const verb = { created: 'Installed', replaced: 'Updated', unchanged: 'Kept (already up to date)' }[outcome];
  io.out(`${verb} DeskPilot's GNOME Shell extension in ${target}.\n`);
  io.out(`  For GNOME Shell ${running} (${choice.form === 'esm' ? 'the ES-module form of GNOME 45 and later' : 'the form of GNOME 43 and 44'}).\n`);
  if (choice.note) io.out(`  Note: ${choice.note}.\n`);
  if (!onPath('gsettings', e.env)) {
    io.out(`gsettings was not found, so it is not enabled yet: enable "DeskPilot window control" in the Extensions app, or run\n  gsettings set org.gnome.shell enabled-extensions "${formatStringArray([EXTENSION_UUID])}" (keeping the ones listed there now).\n`);
  } else {
    try {
      await setEnabled(e.env, true);
      io.out(`Enabled it (org.gnome.shell enabled-extensions lists ${EXTENSION_UUID}).\n`);
      const settings = await readShellSettings(e.env);
      if (settings.userExtensionsOff) io.out('  But user extensions are switched off (disable-user-extensions): turn them on in the Extensions app.\n');
    } catch (err) {
      io.err(`deskpilot: the extension is installed, but enabling it failed: ${errorMessage(err)}\n  Enable "DeskPilot window control" in the Extensions app from your GNOME session.\n`);
      return EXIT.failed;
    }
  }
  io.out(`${RELOGIN}\nThen \`deskpilot gnome-extension status\` says whether it answers.\n`);
  return EXIT.ok;
}

export async function runGnomeExtensionUninstall(io: Io, e: GnomeExtensionEnv = defaultEnv()): Promise<number> {
  const target = extensionTargetDir(e.env, e.home);
  let code: number = EXIT.ok;
  if (onPath('gsettings', e.env)) {
    try {
      await setEnabled(e.env, false);
      io.out('Disabled it (GNOME Shell stops it at once).\n');
    } catch (err) {
      io.err(`deskpilot: disabling it failed: ${errorMessage(err)}\n`);
      code = EXIT.failed;
    }
  }
  io.out((await removeExtension(target)) ? `Removed ${target}.\n` : `Nothing to remove at ${target}.\n`);
  return code;
}

export async function runGnomeExtensionStatus(io: Io, e: GnomeExtensionEnv = defaultEnv()): Promise<number> {
  const target = extensionTargetDir(e.env, e.home);
  const version = await installedVersion(target);
  io.out(version === null ? `Not installed (${target} has no extension).\n` : `Installed: version ${version} in ${target}.\n`);
  if (onPath('gsettings', e.env)) {
    try {
      const s = await readShellSettings(e.env);
      io.out(`Enabled in GNOME's settings: ${s.enabled ? 'yes' : 'no'}${s.disabled ? ' (also listed as disabled)' : ''}${s.userExtensionsOff ? '; user extensions are switched off (disable-user-extensions)' : ''}.\n`);
    } catch (err) {
      io.out(`Enabled in GNOME's settings: unknown (${errorMessage(err)}).\n`);
    }
  }
  // Loaded only here: the D-Bus library is needed for nothing else this command does.
  const { createGnomeWindowBackend } = await import('../platform/windows/gnome/gnome-backend');
  const backend = await createGnomeWindowBackend({ env: e.env });
  try {
    io.out(`Answers on the session bus: yes — ${await backend.describe()}.\n`);
    return EXIT.ok;
  } catch (err) {
    io.out(`Answers on the session bus: no — ${errorMessage(err)}\n`);
    return EXIT.failed;
  } finally {
    await backend.dispose();
  }
}

/** "43.9" from `gnome-shell --version`, or null when there is no GNOME Shell here. */
function shellVersion(env: NodeJS.ProcessEnv): Promise<string | null> {
  if (!onPath('gnome-shell', env)) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile('gnome-shell', ['--version'], { env, timeout: 10_000 }, (err, stdout) => resolve(err ? null : (/(\d+(?:\.\w+)*)/.exec(stdout)?.[1] ?? null)));
  });
}
