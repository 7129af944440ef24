// How people name an installed app besides its name: by what it is ("the terminal", "the
// browser", "the clock") and by the words its .desktop file lists. Also which terminal and
// which browser are the system's defaults, so "terminal" means one app, not every terminal.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { findExecutable } from './find-executable';

/** A generic name for entries without GenericName, from their registered category (freedesktop menu spec). */
const CATEGORY_NAMES: ReadonlyArray<[category: string, generic: string]> = [
  ['TerminalEmulator', 'Terminal'],
  ['WebBrowser', 'Web Browser'],
  ['Clock', 'Clock'],
  ['TextEditor', 'Text Editor'],
  ['FileManager', 'File Manager'],
  ['Calculator', 'Calculator'],
  ['Email', 'Email'],
  ['IDE', 'IDE'],
];

export type DefaultKind = 'terminal' | 'browser';
const KIND_CATEGORY: Record<DefaultKind, string> = { terminal: 'TerminalEmulator', browser: 'WebBrowser' };

export function genericNameOf(genericName: string | undefined, categories: readonly string[]): string | undefined {
  return genericName ?? CATEGORY_NAMES.find(([c]) => categories.includes(c))?.[1];
}

/**
 * The name people say: a Name that ends with the app's generic name drops it
 * ("Chromium Web Browser" → "Chromium", "Firefox Web Browser" → "Firefox"); "Google Chrome" stays.
 */
export function shortName(name: string, genericName: string | undefined): string {
  if (!genericName) return name;
  const suffix = ` ${genericName}`;
  if (name.length <= suffix.length || !name.toLowerCase().endsWith(suffix.toLowerCase())) return name;
  return name.slice(0, -suffix.length).trim() || name;
}

/**
 * The program the system runs as its default terminal or browser: $TERMINAL / $BROWSER (the
 * first of its list), else what Debian's x-terminal-emulator / x-www-browser alternative points
 * to. Only the program's base name, e.g. "lxterm", "chromium".
 */
export function defaultProgram(kind: DefaultKind, env: NodeJS.ProcessEnv): string | null {
  const fromEnv = (kind === 'terminal' ? env.TERMINAL : env.BROWSER?.split(':')[0])?.trim().split(/\s+/)[0];
  if (fromEnv) return path.basename(fromEnv);
  const link = findExecutable(kind === 'terminal' ? 'x-terminal-emulator' : 'x-www-browser', env);
  if (!link) return null;
  try {
    return path.basename(realpathSync(link));
  } catch {
    return null;
  }
}

export interface KindCandidate {
  program: string | undefined;
  categories: readonly string[];
}

/**
 * Which candidate is the default `program`: the one running that program, else — for a wrapper
 * such as Debian's lxterm, which starts xterm — the app of that kind whose program name the
 * default's name contains (the longest such name).
 */
export function pickDefault<T extends KindCandidate>(kind: DefaultKind, program: string | null, apps: readonly T[]): T | null {
  if (!program) return null;
  const exact = apps.find((a) => a.program === program);
  if (exact) return exact;
  const ofKind = apps.filter((a) => a.program && a.categories.includes(KIND_CATEGORY[kind]) && program.includes(a.program));
  ofKind.sort((a, b) => b.program!.length - a.program!.length);
  return ofKind[0] ?? null;
}
