import { stat } from 'node:fs/promises';
import path from 'node:path';

// Opening a recent file must show it, never run it. `xterm <file>` runs the file as a command,
// so does `sh <file>`, `python3 <file>`, `konsole -e <file>`, and xdg-open on a .desktop file
// or (on some desktops) an executable. Decided by rules about what the app's desktop entry
// says, not by a list of terminals:
//  - an entry in the TerminalEmulator category, or the system's default terminal, is a
//    terminal: what it is given it runs;
//  - an Exec line with no file field code (%f %F %u %U) does not say it opens files: the file
//    would be appended as a bare argument to a program that never asked for one (how
//    `xterm <file>` came about);
//  - a shell or language interpreter anywhere before the file in Exec runs it, and so does a
//    file that lands right after an "execute this" option (-e, -x, -c, --command, …);
//  - with the default handler, a file that is itself a program (executable, or a .desktop
//    launcher) is not opened: the handler may run it.

/** Programs that run a file they are given (shells, interpreters, and launchers of commands). */
const RUNS_ITS_ARGUMENT =
  /^(?:(?:ba|rba|da|z|k|mk|c|tc|a|y|lk)?sh|fish|busybox|python[\d.]*|pypy[\d.]*|perl[\d.]*|ruby[\d.]*|irb|node(?:js)?|deno|bun|php[\d.]*|lua(?:jit)?[\d.]*|tclsh[\d.]*|wish[\d.]*|pwsh|powershell|osascript|java|jshell|rscript|julia|guile|expect|[gmn]?awk|xargs|nohup|setsid|sudo|pkexec|doas|su|runuser|systemd-run|flatpak-spawn|wine[\d]*|mono|dotnet|xdg-open|gio|kde-open\d?|gnome-open|exo-open)$/i;

/** Options after which terminals and shells take the command to run. */
const EXECUTE_OPTIONS = new Set(['-e', '-x', '-c', '--command', '--exec', '--execute', '-command']);

const FILE_CODES = new Set(['%f', '%F', '%u', '%U']);

export interface AppForRisk {
  name: string;
  categories: readonly string[];
  /** From the catalog: the system's default terminal. */
  defaultFor?: ReadonlyArray<'terminal' | 'browser'>;
}

/**
 * Why `app` (its Exec line split into arguments, field codes not yet expanded) would run a file
 * it is asked to open instead of showing it; null when it opens files as files.
 */
export function appRunsFile(app: AppForRisk, execArgs: readonly string[]): string | null {
  if (app.categories.includes('TerminalEmulator') || app.defaultFor?.includes('terminal')) {
    return `${app.name} is a terminal, which runs the file it is given as a command`;
  }
  const at = execArgs.findIndex((a) => FILE_CODES.has(a) || /%[fFuU]/.test(a));
  if (at < 0) {
    return `${app.name}'s desktop entry does not say it opens files (no %f, %F, %u or %U in its Exec line), so the file would be handed to it as a command-line argument, which may run it`;
  }
  const runner = execArgs.slice(0, at).find((a) => RUNS_ITS_ARGUMENT.test(path.posix.basename(a)));
  if (runner) return `${app.name} starts ${path.posix.basename(runner)} with the file, which runs it`;
  if (at > 0 && EXECUTE_OPTIONS.has(execArgs[at - 1]!)) {
    return `${app.name} passes the file after "${execArgs[at - 1]}", which runs it as a command`;
  }
  return null;
}

/** Why the desktop's default handler (xdg-open) must not be given `file`; null when it may. */
export async function defaultHandlerRunsFile(file: string): Promise<string | null> {
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) return null;
  if (file.toLowerCase().endsWith('.desktop')) return `${path.basename(file)} is a launcher (.desktop file); the default handler would start the program it names`;
  if ((st.mode & 0o111) !== 0) return `${path.basename(file)} is executable; the default handler may run it instead of showing it`;
  return null;
}
