import type { TabInfo } from '../../protocol/context';

// The words of the questions the matcher asks back. They name the candidates, so the answer
// can be a number or a name, and stay short enough for a menu-bar popover.

const MAX_TITLE = 56;
const MAX_LISTED = 8;

/** Long titles lose their middle: the start names the page, the end often the site or subreddit. */
export function shorten(s: string, max = MAX_TITLE): string {
  if (s.length <= max) return s;
  const tail = Math.floor(max / 3);
  return `${s.slice(0, max - tail - 1).trimEnd()}…${s.slice(s.length - tail).trimStart()}`;
}

/** 2 "GitHub - deskpilot/issues" */
export const tabLabel = (t: TabInfo) => `${t.index} "${shorten(t.title || t.url || t.domain)}"`;

/** "a", "a or b", "a, b or c" — `word` joins the last two. */
export function joinList(items: readonly string[], word = 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

function listed(items: readonly string[], word: string): string {
  if (items.length <= MAX_LISTED) return joinList(items, word);
  return `${items.slice(0, MAX_LISTED).join(', ')} … (${items.length - MAX_LISTED} more)`;
}

export const quote = (s: string) => `"${s}"`;

const hostOf = (t: TabInfo) => {
  try {
    return new URL(t.url).hostname.replace(/^www\./, '');
  } catch {
    return t.domain;
  }
};

/** 2 "GitHub - deskpilot/issues" (github.com) — with the site, since ambiguous tabs often share words of their titles. */
const tabWithSite = (t: TabInfo) => `${tabLabel(t)} (${hostOf(t)})`;

export const whichTab = (tabs: readonly TabInfo[]) => `Which tab: ${listed(tabs.map(tabWithSite), 'or')}?`;

/** A tab as one choice of a question: tab 2 "GitHub - deskpilot/issues" (github.com). */
export const tabChoice = (t: TabInfo) => `tab ${tabWithSite(t)}`;

/** "tab 4", "tabs 2 and 4", "tabs 2, 4 and 7"; more than six: "9 tabs (2, 4, 7 …)". */
export function tabNumbers(tabs: readonly TabInfo[]): string {
  const n = tabs.map((t) => String(t.index));
  if (n.length === 1) return `tab ${n[0]}`;
  if (n.length <= 6) return `tabs ${joinList(n, 'and')}`;
  return `${n.length} tabs (${n.slice(0, 3).join(', ')} …)`;
}

/** A plural whose tabs are named plainly (site, title) and some only in their address: which group? */
export function mixedTabs(names: readonly string[], plain: readonly TabInfo[], loose: readonly TabInfo[]): string {
  const said = joinList(names.map(quote), 'or');
  const named = `${plain.length === 1 ? '1 tab is' : `${plain.length} tabs are`} named ${said} (${plain.map((t) => t.index).join(', ')})`;
  const only = `${loose.length === 1 ? '1 more mentions' : `${loose.length} more mention`} ${names.length === 1 ? 'it' : 'one'} only in the address: ${listed(loose.map(tabWithSite), 'and')}`;
  return `${named}; ${only}. Only the named ones, or all ${plain.length + loose.length}?`;
}

export function noTab(phrase: string, tabs: readonly TabInfo[]): string {
  if (tabs.length === 0) return `No tab matches "${phrase}": no tabs are open.`;
  return `No tab matches "${phrase}". Open tabs: ${listed(tabs.map(tabLabel), 'and')}.`;
}

export const whichApp = (names: readonly string[]) => `Which app: ${listed(names.map(quote), 'or')}?`;

export function noApp(phrase: string, running: readonly string[], scope: 'running' | 'any'): string {
  const what = scope === 'running' ? 'No running app' : 'No running or installed app';
  const list = running.length ? ` Running: ${listed(running, 'and')}.` : '';
  return `${what} matches "${phrase}".${list}`;
}

export const whichPreset = (names: readonly string[]) =>
  names.length === 1 ? `Did you mean the preset "${names[0]}"?` : `Which preset: ${listed(names.map(quote), 'or')}?`;

export function noPreset(phrase: string, presets: readonly string[]): string {
  return presets.length
    ? `No preset matches "${phrase}". Presets: ${listed(presets.map(quote), 'and')}.`
    : `No preset matches "${phrase}": none are saved yet.`;
}

export const NOT_UNDERSTOOD =
  'I could not understand that offline. I understand: switch to <site>, open <site>, close <site> tabs, ' +
  'close tabs 2 and 5, list tabs/apps, open/quit <app>, <app> left/right/maximise/centre WxH, <preset name>, undo.';
