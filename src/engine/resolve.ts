import type { Command } from '../protocol/commands';
import type { ContextSnapshot } from '../protocol/context';
import type { FieldError } from '../protocol/validation';
import { openUrlTarget } from './open-url-target';
import { browserWindowNamed } from './browser-window-target';
import { appNamed } from './app-names';
import { findApp, noSuchApp, windowsOf } from './resolve-apps';
import { appWindow, isWindowLayoutCommand, resolveWindowCommand } from './resolve-windows';
import { isUnknownBareWord } from './local-planner/site-aliases';
import { resolveOpenRecent } from './resolve-recent';
import { isTabManagerCommand, resolveTabCommand, TAB_MANAGER_TYPES } from './resolve-tabs';

// Resolution turns a schema-valid batch into concrete targets taken from the snapshot the
// planner saw: tab indices become CDP target ids, so later index shifts cannot redirect a
// command to the wrong tab. Every command is checked before any runs.

// The resolved shapes are part of the protocol: a prepared batch carries them across processes.
export type { ResolvedCommand } from '../protocol/prepared-batch';
import type { ResolvedCommand } from '../protocol/prepared-batch';

/**
 * `unavailable` errors mean a backend is missing (not the caller's input); the CLI exits 1, not 2.
 * `clarify`: the input fits several things (an app's windows) and the caller is asked which.
 */
export interface ResolveError extends FieldError {
  kind: 'input' | 'unavailable' | 'clarify';
}

export type Resolution = { ok: true; plan: ResolvedCommand[] } | { ok: false; errors: ResolveError[] };

const TAB_TYPES = new Set<string>(['list_tabs', 'switch_tab', 'open_url', ...TAB_MANAGER_TYPES]);
const WINDOW_TYPES = new Set(['list_apps', 'focus_app', 'place_app', 'close_app', 'activate_preset', 'undo', 'swap_apps', 'tile_apps', 'set_app_state']);

export interface ResolveOptions {
  /**
   * The person's own words, when the batch was planned from them: a non-web address
   * (file:, chrome:, …) that appears there literally may be opened, after a yes.
   */
  typedText?: string | null;
}

export function resolveBatch(commands: readonly Command[], snap: ContextSnapshot, opts: ResolveOptions = {}): Resolution {
  const typed = opts.typedText ?? null;
  const errors: ResolveError[] = [];
  const plan: ResolvedCommand[] = [];
  commands.forEach((command, i) => {
    const at = `commands[${i}]`;
    const fail = (field: string | null, message: string, kind: ResolveError['kind'] = 'input') =>
      errors.push({ path: field ? `${at}.${field}` : at, message, kind });

    // A hostile URL is bad input whether or not Chrome is up: check it first (exit 2, not 1).
    if (command.type === 'open_url') {
      const n = openUrlTarget(command.url, typed);
      if (!n.ok) return fail('url', n.reason);
    }
    if (command.type === 'undo' && commands.length > 1) {
      return fail(null, 'undo must be the only command in its batch (it restores earlier batches, not commands beside it)');
    }
    if (TAB_TYPES.has(command.type) && !snap.sources.chrome.ok) {
      return fail(null, snap.sources.chrome.message, 'unavailable');
    }
    if (WINDOW_TYPES.has(command.type) && !snap.sources.windows.ok) {
      return fail(null, snap.sources.windows.message, 'unavailable');
    }
    if (command.type === 'activate_preset' && !snap.sources.presets.ok) {
      return fail(null, `presets cannot be read: ${snap.sources.presets.message}`, 'unavailable');
    }
    const resolved = resolveOne(command, snap, fail, typed);
    if (resolved) plan.push(resolved);
  });
  return errors.length ? { ok: false, errors } : { ok: true, plan };
}

type Fail = (field: string | null, message: string, kind?: ResolveError['kind']) => void;

function resolveOne(command: Command, snap: ContextSnapshot, fail: Fail, typed: string | null): ResolvedCommand | null {
  if (isTabManagerCommand(command)) return resolveTabCommand(command, snap, fail);
  if (isWindowLayoutCommand(command)) return resolveWindowCommand(command, snap, fail);
  switch (command.type) {
    case 'list_apps':
    case 'list_tabs':
    case 'query':
      return { type: command.type, command } as ResolvedCommand;
    case 'switch_tab': {
      const tab = findTab(snap, command.tab_index);
      if (!tab) return fail('tab_index', noSuchTab(command.tab_index, snap)), null;
      return { type: 'switch_tab', command, tab };
    }
    case 'open_url': {
      const n = openUrlTarget(command.url, typed);
      if (!n.ok) return fail('url', n.reason), null;
      // An installed app's name wins over a made-up domain: "xclock" is XClock, not xclock.com.
      const app = isUnknownBareWord(command.url) ? appNamed(command.url, snap) : null;
      if (app) return fail('url', `"${command.url}" is the app ${app}, not a web site; to open it use focus_app with app_name "${app}"`), null;
      if (command.browser_window_id !== undefined && !browserWindowNamed(snap, command.browser_window_id, fail)) return null;
      return { type: 'open_url', command, url: n.url, domain: n.domain };
    }
    case 'focus_app': {
      if (command.window_id) {
        const w = appWindow(snap, command.app_name, command.window_id, { app: 'app_name', window: 'window_id' }, fail);
        return w && { type: 'focus_app', command, ...w };
      }
      const app = findApp(snap, command.app_name, true);
      if (!app) return fail('app_name', noSuchApp(command.app_name, snap, true)), null;
      // Bringing an app to the front is its most recent window: the app is what was named.
      return { type: 'focus_app', command, app, windowId: windowsOf(snap, app)[0]?.id ?? null };
    }
    case 'close_app': {
      const app = findApp(snap, command.app_name, false);
      if (!app) return fail('app_name', noSuchApp(command.app_name, snap, false)), null;
      return { type: 'close_app', command, app, windowIds: windowsOf(snap, app).map((w) => w.id) };
    }
    case 'activate_preset': {
      const preset = snap.presets.find((p) => p.toLowerCase() === command.preset_name.toLowerCase());
      if (!preset) {
        const list = snap.presets.length ? snap.presets.map((p) => `"${p}"`).join(', ') : 'none saved yet';
        return fail('preset_name', `no preset named "${command.preset_name}" (presets: ${list})`), null;
      }
      return { type: 'activate_preset', command, preset };
    }
    case 'undo':
      return { type: 'undo', command, steps: command.steps ?? 1 };
    case 'open_recent':
      return resolveOpenRecent(command, snap, fail);
  }
}

const findTab = (snap: ContextSnapshot, index: number) => snap.tabs.find((t) => t.index === index);

function noSuchTab(index: number, snap: ContextSnapshot): string {
  const n = snap.tabs.length;
  return n === 0 ? `tab ${index} does not exist (no tabs are open)` : `tab ${index} does not exist (open tabs are 1–${n})`;
}

// The lookups moved beside their other users; kept importable from here.
export { monitorFor } from './monitor-roles';
