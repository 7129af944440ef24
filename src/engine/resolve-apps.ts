import type { ContextSnapshot, RunningApp } from '../protocol/context';
import { browserStandIn } from './app-names';
import { closestNames } from './closest-names';

// Apps and their windows in the snapshot a batch is resolved against.

export const windowsOf = (snap: ContextSnapshot, app: string) => snap.running_apps.find((a) => a.name === app)?.windows ?? [];

/** Names match case-insensitively; choosing among similar names is the planner's job. */
export function findApp(snap: ContextSnapshot, name: string, allowInstalled: boolean): string | null {
  const key = name.toLowerCase();
  const running = snap.running_apps.find((a: RunningApp) => a.name.toLowerCase() === key);
  if (running) return running.name;
  const installed = allowInstalled ? snap.installed_apps.find((a) => a.name.toLowerCase() === key) : undefined;
  // "Google Chrome" on a desk that has Chromium (or Brave, Edge…): the result names the one used.
  return installed?.name ?? browserStandIn(name, snap, allowInstalled);
}

export function noSuchApp(name: string, snap: ContextSnapshot, installedToo: boolean): string {
  const pool = [...snap.running_apps.map((a) => a.name), ...(installedToo ? snap.installed_apps.map((a) => a.name) : [])];
  const close = closestNames(name, [...new Set(pool)], 5).map((n) => `"${n}"`);
  const what = installedToo ? 'no running or installed app' : 'no running app';
  if (close.length) return `${what} is named "${name}"; closest: ${close.join(', ')}`;
  const running = snap.running_apps.map((a) => `"${a.name}"`);
  return running.length ? `${what} is named "${name}" (running: ${running.slice(0, 12).join(', ')})` : `${what} is named "${name}"`;
}
