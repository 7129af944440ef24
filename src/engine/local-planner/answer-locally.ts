import type { ContextSnapshot, MonitorInfo, RecentItem, TabInfo } from '../../protocol/context';
import { agoText } from '../tab-age';
import { matchApp, runningApp } from './app-matcher';
import { joinList, shorten, tabLabel } from './messages';
import { monitorByRole } from './placement';
import { matchTabs } from './tab-matcher';
import { normalize, stripArticles, stripFillers } from './text';

// Countable and list questions answered straight from the snapshot — no LLM, no guessing:
// "how many tabs do I have open?", "which tabs are from github?", "what's on my left
// monitor?", "how many apps are running", "what presets do I have", "which tab is active".
// Anything else (opinions, summaries, "what was I reading yesterday") returns null, and the
// LLM answers it.

type Answerer = (m: RegExpExecArray, snap: ContextSnapshot) => string | null;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`);

const chromeOff = (snap: ContextSnapshot) => (snap.sources.chrome.ok ? null : `I can't see Chrome's tabs: ${snap.sources.chrome.message}`);
const windowsOff = (snap: ContextSnapshot) => (snap.sources.windows.ok ? null : `I can't see the windows: ${snap.sources.windows.message}`);

const TAB_WORDS = '(?:chrome |browser |open |opened )*tabs?';
const MONITOR = '(left|right|main|primary)(?: (?:monitor|screen|display))?';

function tabCount(_m: RegExpExecArray, snap: ContextSnapshot): string {
  const off = chromeOff(snap);
  if (off) return off;
  const windows = new Set(snap.tabs.map((t) => t.window_index)).size;
  if (snap.tabs.length === 0) return 'You have no tabs open.';
  return `You have ${plural(snap.tabs.length, 'tab')} open in ${plural(windows, 'window')}.`;
}

function tabsOf(site: string, snap: ContextSnapshot): TabInfo[] | null {
  const m = matchTabs(stripArticles(site), snap.tabs, { fuzzy: false });
  return m.tier === 'none' ? [] : m.all;
}

function siteTabs(m: RegExpExecArray, snap: ContextSnapshot): string | null {
  const off = chromeOff(snap);
  if (off) return off;
  const site = m[1]!.trim();
  const tabs = tabsOf(site, snap);
  if (tabs === null) return null;
  if (tabs.length === 0) return `No open tab matches "${site}".`;
  return `${plural(tabs.length, 'tab matches', 'tabs match')} "${site}": ${joinList(tabs.map(tabLabel), 'and')}.`;
}

function activeTab(_m: RegExpExecArray, snap: ContextSnapshot): string {
  const off = chromeOff(snap);
  if (off) return off;
  const active = snap.tabs.filter((t) => t.is_active);
  if (active.length === 0) return snap.tabs.length ? 'Chrome reports no active tab.' : 'You have no tabs open.';
  if (active.length === 1) return `The active tab is ${tabLabel(active[0]!)}.`;
  return `Each window has its own active tab: ${joinList(active.map((t) => `${tabLabel(t)} (window ${t.window_index})`), 'and')}.`;
}

function appCount(_m: RegExpExecArray, snap: ContextSnapshot): string {
  const off = windowsOff(snap);
  if (off) return off;
  const names = snap.running_apps.map((a) => a.name);
  if (names.length === 0) return 'No apps with windows are running.';
  return `${plural(names.length, 'app is', 'apps are')} running: ${joinList(names, 'and')}.`;
}

function windowCount(_m: RegExpExecArray, snap: ContextSnapshot): string {
  const off = windowsOff(snap);
  if (off) return off;
  const total = snap.running_apps.reduce((n, a) => n + a.windows.length, 0);
  if (total === 0) return 'No windows are open.';
  const per = snap.running_apps.filter((a) => a.windows.length).map((a) => `${a.name}: ${a.windows.length}`);
  return `${plural(total, 'window is', 'windows are')} open (${per.join(', ')}).`;
}

const monitorText = (m: MonitorInfo) => `${m.name} (${m.roles.join(', ') || 'no role'}, ${m.bounds[2] - m.bounds[0]}x${m.bounds[3] - m.bounds[1]})`;

function monitorCount(_m: RegExpExecArray, snap: ContextSnapshot): string {
  const off = windowsOff(snap);
  if (off) return off;
  if (snap.monitors.length === 0) return 'No monitors are reported.';
  return `You have ${plural(snap.monitors.length, 'monitor')}: ${joinList(snap.monitors.map(monitorText), 'and')}.`;
}

function onMonitor(m: RegExpExecArray, snap: ContextSnapshot): string {
  const off = windowsOff(snap);
  if (off) return off;
  const role = m[1] === 'primary' ? 'main' : (m[1] as 'left' | 'right' | 'main');
  const monitor = monitorByRole(snap, role);
  if (!monitor) return `No ${role} monitor is connected.`;
  const items: string[] = [];
  for (const app of snap.running_apps) {
    const wins = app.windows.filter((w) => w.monitor === monitor.name && !w.minimized);
    if (wins.length === 0) continue;
    const titles = wins.map((w) => shorten(w.title, 40)).filter(Boolean);
    items.push(titles.length ? `${app.name} (${joinList(quoted(titles), 'and')})` : app.name);
  }
  const which = `the ${role} monitor (${monitor.name})`;
  return items.length ? `On ${which}: ${joinList(items, 'and')}.` : `Nothing is open on ${which}.`;
}

function presetList(_m: RegExpExecArray, snap: ContextSnapshot): string {
  if (!snap.sources.presets.ok) return `I can't read the presets: ${snap.sources.presets.message}`;
  if (snap.presets.length === 0) return 'You have no presets saved.';
  return `You have ${plural(snap.presets.length, 'preset')}: ${joinList(quoted(snap.presets), 'and')}.`;
}

function isOpen(m: RegExpExecArray, snap: ContextSnapshot): string | null {
  const phrase = stripArticles(m[1]!);
  const app = matchApp(phrase, snap, 'any', { fuzzy: false });
  if (app.kind === 'one' && snap.sources.windows.ok) {
    const running = runningApp(snap, app.name);
    return running
      ? `Yes, ${app.name} is running (${plural(running.windows.length, 'window')}).`
      : `No, ${app.name} is not running.`;
  }
  if (!snap.sources.chrome.ok) return null;
  const tabs = tabsOf(phrase, snap);
  if (tabs && tabs.length) return `Yes, ${plural(tabs.length, 'tab matches', 'tabs match')} "${phrase}": ${joinList(tabs.map(tabLabel), 'and')}.`;
  return null;
}

/** "standup.md in notes (gedit, 2 h ago)": enough to tell them apart; the paths are in the snapshot. */
function recentLine(r: RecentItem, now: number): string {
  const parts = r.path.replace(/[/\\]+$/, '').split(/[/\\]/);
  const where = parts.length > 2 ? ` in ${parts[parts.length - 2]}` : '';
  const extra = [r.app, Number.isFinite(now) ? agoText(r.used_at, now) : null].filter(Boolean).join(', ');
  return `${parts[parts.length - 1]}${where}${extra ? ` (${extra})` : ''}`;
}

const recentAnswer =
  (kind: 'files' | 'projects'): Answerer =>
  (_m, snap) => {
    const items = kind === 'files' ? snap.recent_files : snap.recent_projects;
    // Not read on this desk: an LLM (or the summary) answers instead.
    if (!items) return null;
    if (items.length === 0) return `No recent ${kind} are recorded.`;
    const now = Date.parse(snap.taken_at);
    return `Recent ${kind}, newest first: ${joinList(items.map((r) => recentLine(r, now)), 'and')}.`;
  };

const RECENTLY = '(?: recently| lately| today| last)?';

const QUESTIONS: Array<[RegExp, Answerer]> = [
  [new RegExp(`^(?:what|which) (?:files|documents|docs) (?:did|have) i (?:open|opened|use|used|edit|edited|work on|worked on)${RECENTLY}$`), recentAnswer('files')],
  [/^(?:what are |show me |list )?(?:my |the )?(?:recent|recently (?:opened|used)) (?:files|documents)$/, recentAnswer('files')],
  [new RegExp(`^(?:what|which) (?:projects|repos|workspaces|folders) (?:did|have) i (?:open|opened|work on|worked on|have open)${RECENTLY}$`), recentAnswer('projects')],
  [/^(?:what are |show me |list )?(?:my |the )?(?:recent|recently opened) (?:projects|repos|workspaces)$/, recentAnswer('projects')],
  [new RegExp(`^how many ${TAB_WORDS}(?: (?:do|have) i (?:have|got))?(?: (?:open|opened))?(?: (?:are|is) (?:there|open))?(?: right now| in chrome| in total| altogether)*$`), tabCount],
  [/^how many (?:chrome |browser )?tabs (?:are|is) (?:open|there)(?: right now| in chrome)?$/, tabCount],
  [/^how many (.+?) tabs(?: (?:do|have) i (?:have|got))?(?: (?:open|opened))?(?: are (?:there|open))?$/, siteTabs],
  [/^(?:which|what) tabs (?:are|do i have|have i got)(?: open)? (?:from|on|for|of|at|about|with) (.+?)(?: open)?$/, siteTabs],
  [/^(?:which|what) (.+?) tabs (?:do i have|are|have i got)(?: open)?$/, siteTabs],
  [/^(?:do i have|are there|have i got) (?:any )?(.+?) tabs(?: open)?$/, siteTabs],
  [/^(?:list|show)(?: me)? (?:all )?(?:the |my )?tabs (?:from|on|for|of|at) (.+)$/, siteTabs],
  [/^(?:which|what) tab (?:is|am i)(?: currently)? (?:active|open|selected|current|focused|on|in|looking at)(?: now| right now)?$/, activeTab],
  [/^(?:what|which) is (?:the |my )?(?:current|active|selected|focused) tab$/, activeTab],
  [/^how many (?:apps|applications|programs)(?: do i have| are| have i got)?(?: (?:running|open))?(?: right now)?$/, appCount],
  [/^how many windows(?: do i have| are| have i got)?(?: (?:open|there))?(?: right now)?$/, windowCount],
  [/^how many (?:monitors|screens|displays)(?: do i have| are| have i got)?(?: (?:connected|there|attached|plugged in))?$/, monitorCount],
  [new RegExp(`^(?:what|what apps|which apps|what windows|which windows|whats) (?:is |are )?(?:open |running )?(?:on|in) (?:my |the )?${MONITOR}$`), onMonitor],
  [/^(?:what|which) (?:presets|layouts)(?: do i have| are there| have i got| are saved| exist| are available| can i use)?$/, presetList],
  [/^how many (?:presets|layouts)(?: do i have| are there| have i got)?$/, presetList],
  [/^(?:list|show)(?: me)? (?:my |the |all )*(?:presets|layouts)$/, presetList],
  [/^is (.+?) (?:running|open)(?: right now)?$/, isOpen],
];

export function answerLocally(question: string, snap: ContextSnapshot): string | null {
  const q = stripFillers(normalize(question))
    .replace(/^(?:tell me|do you know) /, '')
    .replace(/^whats /, 'what is ')
    .trim();
  for (const [re, answer] of QUESTIONS) {
    const m = re.exec(q);
    if (m) return answer(m, snap);
  }
  return null;
}
