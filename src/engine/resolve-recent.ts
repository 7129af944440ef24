import type { CommandOf } from '../protocol/commands';
import type { ContextSnapshot, RecentItem } from '../protocol/context';
import type { ResolvedCommand } from '../protocol/prepared-batch';
import { findApp } from './resolve-apps';

// open_recent opens only what the snapshot listed: a planner (or a script) cannot make
// DeskPilot open an arbitrary path, only one the user opened themselves lately.

type Fail = (field: string | null, message: string) => void;

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/[/\\]+$/, '') : p);
const baseName = (p: string) => trimSlash(p).split(/[/\\]/).pop() ?? p;

export function resolveOpenRecent(command: CommandOf<'open_recent'>, snap: ContextSnapshot, fail: Fail): ResolvedCommand | null {
  const want = trimSlash(command.path.trim());
  const files = snap.recent_files ?? [];
  const projects = snap.recent_projects ?? [];
  const file = files.find((r) => trimSlash(r.path) === want);
  const project = file ? undefined : projects.find((r) => trimSlash(r.path) === want);
  const item: RecentItem | undefined = file ?? project;
  if (!item) {
    const listed = [...projects, ...files].map((r) => `"${baseName(r.path)}"`);
    const tail = listed.length ? ` (listed: ${listed.slice(0, 8).join(', ')}${listed.length > 8 ? ' …' : ''})` : ' (this snapshot lists none)';
    return fail('path', `"${command.path}" is not one of the recent files or projects in the snapshot; only a listed path can be opened${tail}`), null;
  }
  let app: string | null = null;
  if (command.app_name !== undefined) {
    const named = findApp(snap, command.app_name, true);
    app = named && snap.installed_apps.some((a) => a.name === named) ? named : null;
    if (!app) {
      const why = named ? `"${named}" is running but not an installed app DeskPilot can start with a file` : `no installed app is named "${command.app_name}"`;
      return fail('app_name', why), null;
    }
  } else if (project && item.app && snap.installed_apps.some((a) => a.name === item.app)) {
    // A project goes back to the IDE it was open in; a folder given to the default handler opens a file manager.
    app = item.app;
  }
  return { type: 'open_recent', command, path: item.path, kind: file ? 'file' : 'project', app };
}
