import type { ContextSnapshot, DevicesContext, InstalledApp, MonitorInfo, RecentItem, TabInfo, WindowInfo } from '../../protocol/context';
import { agoText } from '../tab-age';
import { clip, oneLine } from '../words';
import { browserWindows } from '../browser-window-target';

// The snapshot as the planner reads it, written for tokens rather than for machines: one
// line per thing, only what a planner can name in a command (indices, exact names, rects).
// Target ids, pids, url paths and timestamps are left out — no command can use them.
// Page titles and summaries are untrusted page text: whitespace is collapsed and they are
// quoted, so a title can never forge a line of context.

export interface CompactOptions {
  /**
   * The user's request. When the installed-app list has to be trimmed, names sharing a word
   * with it are kept first, so "open Blender" still shows Blender on a 300-app machine.
   */
  request?: string;
  /** Character budget for the installed-app list (default 2400, roughly 600 tokens). */
  installedChars?: number;
}

const TITLE_MAX = 90;
const SUMMARY_MAX = 80;

const quote = (s: string, n: number) => JSON.stringify(clip(oneLine(s), n));
const rect = (r: readonly number[]) => `[${r.join(',')}]`;

export function compactContext(snap: ContextSnapshot, opts: CompactOptions = {}): string {
  const out: string[] = [];
  const { windows, chrome, presets } = snap.sources;
  const down = (Object.entries(snap.sources) as [string, { ok: boolean; message: string }][]).filter(([, s]) => !s.ok);
  if (down.length) {
    // Said up front and in one line, so the model explains or asks instead of inventing items.
    out.push(`UNAVAILABLE (nothing from these is known; do not invent it): ${down.map(([k, s]) => `${k}: ${oneLine(s.message)}`).join('; ')}`);
  }

  if (windows.ok) {
    out.push('Monitors ([left,top,right,bottom]; place windows inside the work area):');
    // Numbered, so "monitor 2" has one meaning (place_app.monitor "2").
    snap.monitors.forEach((m, i) => out.push(`#${i + 1} ${monitorLine(m)}`));
    if (!snap.monitors.length) out.push('(none reported)');
    out.push('Running apps (windows: "title" [frame] monitor flags):');
    for (const app of snap.running_apps) out.push(appLine(app.name, app.windows));
    if (!snap.running_apps.length) out.push('(none)');
  }

  out.push(installedLine(snap.installed_apps.map(installedLabel), opts));

  if (chrome.ok) {
    out.push(snap.tabs.length ? 'Chrome tabs (index, * = active in its window, w = Chrome window, site, "title" — summary):' : 'Chrome tabs: none open');
    const now = Date.parse(snap.taken_at);
    for (const t of snap.tabs) out.push(tabLine(t, Number.isFinite(now) ? now : undefined));
    if (snap.tab_collections?.length) out.push(`Saved sets of tabs (restore_tabs): ${snap.tab_collections.map((c) => JSON.stringify(c)).join(', ')}`);
    const windows = browserWindows(snap);
    if (windows.length) out.push(`Chrome window ids (browser_window_id): ${windows.map((w) => `w${w.window_index} ${w.browser_window_id}`).join(', ')}`);
  }

  if (presets.ok) out.push(`Presets: ${snap.presets.length ? snap.presets.map((p) => JSON.stringify(p)).join(', ') : 'none saved'}`);
  const taken = Date.parse(snap.taken_at);
  if (snap.recent_files?.length) out.push(`Recent files (open_recent path, newest first): ${recentList(snap.recent_files, taken)}`);
  if (snap.recent_projects?.length) out.push(`Recent projects (open_recent path, newest first): ${recentList(snap.recent_projects, taken)}`);
  if (snap.devices?.others.length) out.push(otherDevicesText(snap.devices, opts));
  return out.join('\n');
}

/** "/home/a/notes.md" (gedit, 2 h ago); …: the path is what open_recent takes, exactly. */
function recentList(items: readonly RecentItem[], now: number): string {
  return items
    .map((r) => {
      const when = Number.isFinite(now) ? agoText(r.used_at, now) : null;
      const extra = [r.app, when].filter(Boolean).join(', ');
      return `${JSON.stringify(r.path)}${extra ? ` (${extra})` : ''}`;
    })
    .join('; ');
}

export const monitorLine = (m: MonitorInfo) => `${m.name} ${m.roles.join(',') || '-'} bounds ${rect(m.bounds)} work ${rect(m.work_area)}`;

export function appLine(name: string, windows: readonly WindowInfo[]): string {
  if (!windows.length) return `${name}: no windows`;
  // With several windows each says its id, for window_id ("the second xterm"); one needs none.
  const several = windows.length > 1;
  const parts = windows.map((w) => {
    const flags = [w.focused && 'focused', w.minimized && 'minimized'].filter(Boolean).join(' ');
    return [several && `id ${w.id}`, quote(w.title, TITLE_MAX), rect(w.bounds), w.monitor ?? 'offscreen', flags].filter(Boolean).join(' ');
  });
  return `${name}: ${parts.join('; ')}`;
}

/**
 * "XTerm [Terminal, default terminal]": what kind of app it is when its name does not say, so
 * "the terminal" and "the browser" can be matched. The name is what goes into app_name.
 */
export function installedLabel(a: InstalledApp): string {
  const kind = a.generic_name && !a.name.toLowerCase().includes(a.generic_name.toLowerCase()) ? a.generic_name : null;
  const dflt = a.default_for?.map((d) => `default ${d}`) ?? [];
  const extra = [kind, ...dflt].filter(Boolean);
  return extra.length ? `${a.name} [${extra.join(', ')}]` : a.name;
}

/** Host rather than registrable domain: mail.google.com and docs.google.com are different things to a user. */
function site(t: TabInfo): string {
  try {
    const u = new URL(t.url);
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.host.replace(/^www\./, '');
  } catch {
    // not a URL at all; fall through to the raw text
  }
  return t.domain || clip(t.url, 40) || '-';
}

export function tabLine(t: TabInfo, now?: number): string {
  const title = t.title ? quote(t.title, TITLE_MAX) : '(untitled)';
  const summary = t.content_summary ? ` — ${clip(oneLine(t.content_summary), SUMMARY_MAX)}` : '';
  return `${t.index}${t.is_active ? '*' : ''} w${t.window_index} ${site(t)} ${title}${tabFlags(t, now)}${summary}`;
}

/** What the tab manager knows beyond the title: " {pinned muted group "Work" used 3 d ago}", or nothing. */
function tabFlags(t: TabInfo, now: number | undefined): string {
  const used = now === undefined ? null : agoText(t.last_used_at, now);
  const flags = [t.pinned && 'pinned', t.muted && 'muted', t.audible && 'playing sound', t.group && `group ${quote(t.group.title, 40)}`, used && `used ${used}`].filter(Boolean);
  return flags.length ? ` {${flags.join(' ')}}` : '';
}

function installedLine(names: string[], opts: CompactOptions): string {
  const budget = opts.installedChars ?? 2400;
  const sorted = [...new Set(names.map(oneLine).filter(Boolean))].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : 1));
  if (!sorted.length) return 'Installed apps: none known';
  const full = sorted.join(', ');
  if (full.length <= budget) return `Installed apps: ${full}`;

  const words = new Set((opts.request ?? '').toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
  const mentioned = (n: string) => (n.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).some((w) => words.has(w));
  const kept = new Set<string>();
  let used = 0;
  // Names the request mentions first, then alphabetical order fills the rest of the budget.
  for (const n of [...sorted.filter(mentioned), ...sorted]) {
    if (kept.has(n) || used + n.length + 2 > budget) continue;
    kept.add(n);
    used += n.length + 2;
  }
  const shown = sorted.filter((n) => kept.has(n));
  return `Installed apps (${shown.length} of ${sorted.length}; the rest not listed): ${shown.join(', ')}`;
}

/**
 * The user's other devices, each under its name, in the same lines (a smaller installed-app
 * budget: the request's words still pick what it names). Their indices are their own.
 */
function otherDevicesText(devices: DevicesContext, opts: CompactOptions): string {
  const head = `THIS COMPUTER is ${JSON.stringify(devices.this_device)}; everything above is its desk. The user's OTHER DEVICES follow — to act on one, set "device" to its name; its tab indices, apps and monitors are its own:`;
  const parts = devices.others.map((d) => {
    const status = d.online ? 'online' : `offline, last seen ${d.last_seen}`;
    return `=== device ${JSON.stringify(d.name)} (${status}) ===\n${compactContext(d.snapshot, { ...opts, installedChars: Math.min(opts.installedChars ?? 2400, 600) })}`;
  });
  return [head, ...parts].join('\n');
}
