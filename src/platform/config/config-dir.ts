import os from 'node:os';
import path from 'node:path';

// Where DeskPilot keeps its files on each platform. On Linux (and other XDG desktops) the
// settings live under $XDG_CONFIG_HOME, what DeskPilot records as it runs (history, undo, the
// last requests, its Chrome profile) under $XDG_STATE_HOME, and what it can rebuild at will under
// $XDG_CACHE_HOME; macOS and Windows keep all of it in the one per-user folder, as before.

type XdgVariable = 'XDG_CONFIG_HOME' | 'XDG_STATE_HOME' | 'XDG_CACHE_HOME' | 'XDG_RUNTIME_DIR';

const warnedRelative = new Set<string>();

/**
 * An XDG base directory from the environment, or undefined when unset, empty or relative. The
 * specification: "All paths set in these environment variables must be absolute. If an
 * implementation encounters a relative path in any of these variables it should consider the
 * path invalid and ignore it." Ignored with a warning (once per process) rather than refused:
 * other programs ignore it too, so DeskPilot alone failing over it would only puzzle.
 */
export function xdgDir(env: NodeJS.ProcessEnv, name: XdgVariable, warn: (message: string) => void = defaultWarn): string | undefined {
  const value = env[name];
  if (!value) return undefined;
  if (path.isAbsolute(value)) return value;
  const key = `${name}=${value}`;
  if (!warnedRelative.has(key)) {
    warnedRelative.add(key);
    warn(`${name} is a relative path ("${value}"), which the XDG Base Directory specification says to ignore; using the default instead`);
  }
  return undefined;
}

const defaultWarn = (message: string) => void process.stderr.write(`deskpilot: ${message}\n`);

const isXdgPlatform = (platform: NodeJS.Platform) => platform !== 'darwin' && platform !== 'win32';

/** The platform's usual place for per-user settings (DESKPILOT_CONFIG_DIR or --config-dir override it; see load-config.ts). */
export function defaultConfigDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'DeskPilot');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'DeskPilot');
  return path.join(xdgDir(env, 'XDG_CONFIG_HOME') ?? path.join(home, '.config'), 'deskpilot');
}

export interface DataDirs {
  /** Settings and identity: config.json, presets, tab collections, device-id, credentials, keys. */
  config: string;
  /** What DeskPilot records as it runs: history, undo, turns, the sync journal, its Chrome profile, the sync server's database. */
  state: string;
  /** What can be rebuilt at any time (the Chrome run cache). */
  cache: string;
}

/**
 * The state and cache folders that go with a config folder. A config folder chosen by flag or
 * DESKPILOT_CONFIG_DIR (a second profile, a test) keeps its state and cache inside itself, so it
 * stays one self-contained folder, unless DESKPILOT_STATE_DIR names the state folder; the default
 * config folder's go to the XDG state and cache homes (on macOS and Windows, the same folder).
 */
export function dataDirs(
  config: { dir: string; chosen: boolean },
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): DataDirs {
  const stateOverride = env.DESKPILOT_STATE_DIR ? path.resolve(env.DESKPILOT_STATE_DIR) : undefined;
  if (config.chosen || !isXdgPlatform(platform)) {
    return { config: config.dir, state: stateOverride ?? config.dir, cache: config.dir };
  }
  return {
    config: config.dir,
    state: stateOverride ?? path.join(xdgDir(env, 'XDG_STATE_HOME') ?? path.join(home, '.local', 'state'), 'deskpilot'),
    cache: path.join(xdgDir(env, 'XDG_CACHE_HOME') ?? path.join(home, '.cache'), 'deskpilot'),
  };
}
