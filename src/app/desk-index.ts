import { COMMAND_SCHEMAS, type Command } from '../protocol/commands';
import type { ContextSnapshot } from '../protocol/context';
import type { DeskIndex, LauncherActRequest } from '../protocol/launcher';
import { DeskPilotError } from '../engine/errors';

// The launcher's index of the desk (what its live list matches words against) made from a
// snapshot, and what an action on one listed item means as protocol commands. Pure.

/** Whether the protocol has a command to pin tabs (the Pin action is offered only then). */
export const PIN_COMMAND = 'pin_tabs';
export const hasPinCommand = (): boolean => Object.hasOwn(COMMAND_SCHEMAS, PIN_COMMAND);

/** Snapshots from before tab strip details were known say nothing: not pinned. */
const isPinned = (t: object): boolean => (t as { pinned?: unknown }).pinned === true;

export function deskIndexOf(
  id: string,
  snap: ContextSnapshot,
  meta: Pick<DeskIndex, 'planner' | 'confirm'>,
): DeskIndex {
  const running = new Set(snap.running_apps.map((a) => a.name.toLowerCase()));
  const problems = [snap.sources.chrome, snap.sources.windows].filter((s) => !s.ok).map((s) => s.message);
  return {
    id,
    taken_at: snap.taken_at,
    tabs: snap.tabs.map((t) => ({
      index: t.index,
      title: t.title,
      url: t.url,
      domain: t.domain,
      active: t.is_active,
      window: t.window_index,
      pinned: isPinned(t),
    })),
    apps: [
      ...snap.running_apps.map((a) => ({
        name: a.name,
        running: true,
        windows: a.windows.map((w) => ({ id: w.id, title: w.title, monitor: w.monitor, focused: w.focused, minimized: w.minimized })),
      })),
      ...snap.installed_apps.filter((a) => !running.has(a.name.toLowerCase())).map((a) => ({ name: a.name, running: false, windows: [] })),
    ],
    presets: [...snap.presets],
    monitors: snap.monitors.map((m) => ({ name: m.name, roles: [...m.roles] })),
    planner: meta.planner,
    confirm: { ...meta.confirm },
    actions: { pin: hasPinCommand() },
    problems,
  };
}

/** An action on a listed item as commands, and the words history remembers it by. */
export function itemCommands(req: Pick<LauncherActRequest, 'item' | 'action'>, snap: ContextSnapshot): { text: string; commands: Command[] } {
  const { item, action } = req;
  const refuse = (why: string): never => {
    throw new DeskPilotError(why, 'invalid_argument');
  };
  switch (item.kind) {
    case 'tab': {
      const tab = snap.tabs.find((t) => t.index === item.index) ?? refuse(`tab ${item.index} is no longer in the list; type again`);
      const named = `tab ${tab.index} "${tab.title || tab.url}"`;
      if (action === 'open') return { text: `switch to ${named}`, commands: [{ type: 'switch_tab', tab_index: tab.index }] };
      if (action === 'close') return { text: `close ${named}`, commands: [{ type: 'close_tab', tab_indices: [tab.index] }] };
      if (action === 'pin' && hasPinCommand()) {
        const pinned = !isPinned(tab);
        // Checked against the protocol's own schema when the batch is prepared.
        return { text: `${pinned ? 'pin' : 'unpin'} ${named}`, commands: [{ type: PIN_COMMAND, tab_indices: [tab.index], pinned } as unknown as Command] };
      }
      return refuse(`a tab cannot be ${action === 'pin' ? 'pinned' : 'moved to a monitor on its own'}`);
    }
    case 'app': {
      const name = item.name;
      if (action === 'open') return { text: `bring ${name} to the front`, commands: [{ type: 'focus_app', app_name: name }] };
      if (action === 'close') return { text: `quit ${name}`, commands: [{ type: 'close_app', app_name: name }] };
      if (action === 'move_left' || action === 'move_right') {
        const monitor = action === 'move_left' ? 'left' : 'right';
        return { text: `move ${name} to the ${monitor} monitor`, commands: [{ type: 'place_app', app_name: name, monitor }] };
      }
      return refuse('an app cannot be pinned');
    }
    case 'window': {
      // By its id in the snapshot it was listed from: a window closed since is refused, never another one.
      const app = snap.running_apps.find((a) => a.name === item.app && a.windows.some((w) => w.id === item.id)) ?? refuse(`that ${item.app} window is no longer open; type again`);
      const w = app.windows.find((x) => x.id === item.id)!;
      const named = `${app.name}'s window "${w.title || w.id}"`;
      const which = { app_name: app.name, window_id: w.id };
      if (action === 'open') return { text: `bring ${named} to the front`, commands: [{ type: 'focus_app', ...which }] };
      if (action === 'move_left' || action === 'move_right') {
        const monitor = action === 'move_left' ? 'left' : 'right';
        return { text: `move ${named} to the ${monitor} monitor`, commands: [{ type: 'place_app', ...which, monitor }] };
      }
      return refuse(action === 'close' ? `one window cannot be closed on its own; quit ${app.name} to close them all` : 'a window cannot be pinned');
    }
    case 'preset':
      if (action !== 'open') return refuse('a preset can only be applied');
      return { text: `apply preset "${item.name}"`, commands: [{ type: 'activate_preset', preset_name: item.name }] };
  }
}
