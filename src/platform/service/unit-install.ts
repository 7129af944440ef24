import { execFile } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { lstat, mkdir, readFile, readlink, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isOurUnit, LAUNCH_AGENT_LABEL, SYSTEMD_UNIT, SYSTEMD_UNIT_NAME, type UnitLocation } from './unit-files';

// Writing and removing the service's unit file, and the systemctl/launchctl calls that
// enable or disable it. A file without DeskPilot's marker is never replaced or removed, and
// one that cannot be read is never overwritten.

export class UnitFileError extends Error {}

export type WriteOutcome = 'created' | 'replaced' | 'unchanged';

async function readIfThere(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UnitFileError(`${file}: cannot read it (${(e as Error).message}), so it is left as it is`);
  }
}

export function notOurs(file: string, doing: string): UnitFileError {
  return new UnitFileError(`${file} was not written by DeskPilot (it has no "deskpilot-service-unit" line), so it is not ${doing}; move it away first if DeskPilot's should take its place`);
}

export async function writeUnit(file: string, content: string): Promise<WriteOutcome> {
  const existing = await readIfThere(file);
  if (existing !== null && !isOurUnit(existing)) throw notOurs(file, 'replaced');
  if (existing === content) return 'unchanged';
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content, { encoding: 'utf8', mode: 0o644 });
  await rename(tmp, file);
  return existing === null ? 'created' : 'replaced';
}

/** Whether a unit file is there, and whether DeskPilot wrote it; throws when it cannot be read. */
export async function unitState(file: string): Promise<'absent' | 'ours' | 'theirs'> {
  const text = await readIfThere(file);
  return text === null ? 'absent' : isOurUnit(text) ? 'ours' : 'theirs';
}

/** Removes our unit file (and systemd's enable link to it, which `disable` removes when systemd answers). */
export async function removeUnit(loc: UnitLocation): Promise<'removed' | 'absent'> {
  const state = await unitState(loc.file);
  if (state === 'absent') return 'absent';
  if (state === 'theirs') throw notOurs(loc.file, 'removed');
  await unlink(loc.file);
  if (loc.kind === 'systemd') {
    const link = path.join(path.dirname(loc.file), 'graphical-session.target.wants', SYSTEMD_UNIT_NAME);
    try {
      if ((await lstat(link)).isSymbolicLink() && path.resolve(path.dirname(link), await readlink(link)) === loc.file) await rm(link);
    } catch {
      // no enable link: nothing to remove
    }
  }
  return 'removed';
}

/** A program call that enables or disables the unit; `mayFail` ones only tidy up. */
export interface ManagerCommand {
  argv: string[];
  mayFail?: boolean;
}

export function enableCommands(loc: UnitLocation, uid: number, outcome: WriteOutcome): ManagerCommand[] {
  if (loc.kind === 'launchd') {
    // A loaded agent must be booted out before its new definition can be bootstrapped.
    return [
      { argv: ['launchctl', 'bootout', `gui/${uid}/${LAUNCH_AGENT_LABEL}`], mayFail: true },
      { argv: ['launchctl', 'bootstrap', `gui/${uid}`, loc.file] },
    ];
  }
  return [
    { argv: ['systemctl', '--user', 'daemon-reload'] },
    { argv: ['systemctl', '--user', 'enable', '--now', SYSTEMD_UNIT] },
    // A running service keeps its old command line until it is restarted.
    ...(outcome === 'replaced' ? [{ argv: ['systemctl', '--user', 'try-restart', SYSTEMD_UNIT] }] : []),
  ];
}

export function disableCommands(loc: UnitLocation, uid: number): { before: ManagerCommand[]; after: ManagerCommand[] } {
  if (loc.kind === 'launchd') return { before: [{ argv: ['launchctl', 'bootout', `gui/${uid}/${LAUNCH_AGENT_LABEL}`], mayFail: true }], after: [] };
  return {
    before: [{ argv: ['systemctl', '--user', 'disable', '--now', SYSTEMD_UNIT] }],
    after: [{ argv: ['systemctl', '--user', 'daemon-reload'] }],
  };
}

/** How a person types the commands (shown when they are not run, or failed). */
export const shellLine = (cmds: ManagerCommand[]): string =>
  cmds
    .filter((c) => !c.mayFail)
    .map((c) => c.argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' '))
    .join(' && ');

/** The absolute path of an executable on PATH, or null. */
export function onPath(program: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, program);
    try {
      accessSync(file, fsConstants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

const COMMAND_TIMEOUT_MS = 60_000;

/** Runs the commands in order; stops at the first failure that matters and says which and why. */
export async function runManagerCommands(cmds: ManagerCommand[], env: NodeJS.ProcessEnv = process.env): Promise<{ ok: true } | { ok: false; failed: string; why: string }> {
  for (const c of cmds) {
    const [program, ...args] = c.argv as [string, ...string[]];
    const why = await new Promise<string | null>((resolve) => {
      execFile(program, args, { env, timeout: COMMAND_TIMEOUT_MS }, (err, _stdout, stderr) => {
        if (!err) resolve(null);
        else resolve(stderr.trim() || err.message);
      });
    });
    if (why !== null && !c.mayFail) return { ok: false, failed: c.argv.join(' '), why };
  }
  return { ok: true };
}
