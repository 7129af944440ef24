// Desktop Entry files (freedesktop.org Desktop Entry Specification 1.5): only what a launcher needs.
//
// Localized keys (Name[de]) are ignored on purpose: the display name is matched by the engine and
// the language model, and an unlocalized name stays the same whatever LANG the assistant runs with.
// OnlyShowIn/NotShowIn are ignored too: DeskPilot is not a desktop environment, and hiding an app
// the user can see in their own menu would be more surprising than showing one they cannot.

export interface DesktopEntry {
  type: string | undefined;
  name: string | undefined;
  exec: string | undefined;
  tryExec: string | undefined;
  /** Working directory for the program. */
  path: string | undefined;
  icon: string | undefined;
  terminal: boolean;
  noDisplay: boolean;
  hidden: boolean;
  startupWMClass: string | undefined;
  /** What kind of app it is, e.g. "Web Browser", "Terminal". */
  genericName: string | undefined;
  /** Other words for it (the spec's ;-separated list). */
  keywords: string[];
  /** Registered categories, e.g. ["System", "TerminalEmulator"]. */
  categories: string[];
  /** Every unlocalized key of the [Desktop Entry] group, values unescaped. */
  keys: ReadonlyMap<string, string>;
}

const GROUP = 'Desktop Entry';
const KEY = /^[A-Za-z0-9-]+$/;
const LOCALIZED_KEY = /^[A-Za-z0-9-]+\[[^\]]+\]$/;

/** The spec's escapes for string values; an unknown escape keeps its backslash (Exec quoting needs it). */
export function unescapeValue(raw: string): string {
  return raw.replace(/\\(.)/g, (whole, c: string) => {
    switch (c) {
      case 's':
        return ' ';
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case '\\':
        return '\\';
      default:
        return whole;
    }
  });
}

/** null when the text has no [Desktop Entry] group. Other groups (e.g. [Desktop Action new-window]) are skipped. */
export function parseDesktopEntry(text: string): DesktopEntry | null {
  const keys = new Map<string, string>();
  let state: 'before' | 'inside' | 'after' = 'before';
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      const group = line.slice(1, -1);
      // A second [Desktop Entry] group is invalid per spec; the first one is the entry.
      if (state === 'inside') state = 'after';
      else if (state === 'before' && group === GROUP) state = 'inside';
      if (state === 'after') break;
      continue;
    }
    if (state !== 'inside') continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (LOCALIZED_KEY.test(key) || !KEY.test(key)) continue;
    // Later duplicates win, as in GLib's key-file parser.
    keys.set(key, unescapeValue(line.slice(eq + 1).trim()));
  }
  if (state === 'before') return null;
  const str = (k: string) => keys.get(k);
  const bool = (k: string) => keys.get(k) === 'true';
  // The spec's lists end with ';' and escape a literal one as '\;' (kept here as written).
  const list = (k: string) => (keys.get(k) ?? '').split(/(?<!\\);/).map((v) => v.replace(/\\;/g, ';').trim()).filter(Boolean);
  return {
    type: str('Type'),
    name: str('Name'),
    exec: str('Exec'),
    tryExec: str('TryExec'),
    path: str('Path') || undefined,
    icon: str('Icon') || undefined,
    terminal: bool('Terminal'),
    noDisplay: bool('NoDisplay'),
    hidden: bool('Hidden'),
    startupWMClass: str('StartupWMClass') || undefined,
    genericName: str('GenericName')?.trim() || undefined,
    keywords: list('Keywords'),
    categories: list('Categories'),
    keys,
  };
}
