import type { ContextSnapshot } from '../protocol/context';
import { plural } from './words';

// A plain-words account of the snapshot. It is what `query` answers until a planner
// that understands questions is configured, and it must never invent anything.


export function describeContext(snap: ContextSnapshot): string {
  const lines: string[] = [];
  if (snap.sources.chrome.ok) {
    const windows = new Set(snap.tabs.map((t) => t.window_index)).size;
    const active = snap.tabs.filter((t) => t.is_active).map((t) => `"${t.title || t.url}"`);
    let line = `${plural(snap.tabs.length, 'tab')} open in ${plural(windows, 'Chrome window')}`;
    if (active.length) line += `; active: ${active.join(', ')}`;
    lines.push(line + '.');
  } else {
    lines.push(`Chrome: ${snap.sources.chrome.message}`);
  }
  if (snap.sources.windows.ok) {
    const apps = snap.running_apps.map((a) => a.name);
    lines.push(`${plural(apps.length, 'running app')}${apps.length ? `: ${apps.join(', ')}` : ''}.`);
    lines.push(`${plural(snap.monitors.length, 'monitor')}.`);
  } else {
    lines.push(`Windows: ${snap.sources.windows.message}.`);
  }
  lines.push(snap.presets.length ? `Presets: ${snap.presets.join(', ')}.` : 'No presets saved.');
  return lines.join(' ');
}
