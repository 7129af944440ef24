import type { MonitorInfo, TabInfo } from '../../protocol/context';
import { tabChoice, whichApp, whichPreset, whichTab } from './messages';
import { askChoosing, MAX_CHOICES, ok, type ClauseResult } from './result';

// Questions that are a choice between things the matcher found — these two GitHub tabs, Code
// or Cursor, "code space" or "Code Review" — carry each thing as a ready choice, so that a UI
// can offer them as buttons. A choice is what this clause comes to when that thing is meant,
// built by the rule that asked (switch to it, close it, place the app there …); one that
// would itself need a question is left out. Labels name the thing the way the question does.

export type Option = { label: string; result: ClauseResult | null };

export const switchTab = (t: TabInfo): ClauseResult => ok({ type: 'switch_tab', tab_index: t.index });
export const focusApp = (name: string): ClauseResult => ok({ type: 'focus_app', app_name: name });
export const activatePreset = (name: string): ClauseResult => ok({ type: 'activate_preset', preset_name: name });

/** One option per tab, in the order given (the question's). */
export const tabOptions = (tabs: readonly TabInfo[], build: (t: TabInfo) => ClauseResult | null): Option[] =>
  tabs.slice(0, MAX_CHOICES).map((t) => ({ label: tabChoice(t), result: build(t) }));

/** One option per app name (names are the snapshot's exact names, so they are distinct). */
export const appOptions = (names: readonly string[], build: (name: string) => ClauseResult | null): Option[] =>
  names.slice(0, MAX_CHOICES).map((n) => ({ label: n, result: build(n) }));

/** "Which tab: …?" — `tabs` sorted as they are to be listed. */
export const askWhichTab = (tabs: readonly TabInfo[], build: (t: TabInfo) => ClauseResult | null, extra: Option[] = [], hint = '') =>
  askChoosing(whichTab(tabs) + hint, [...tabOptions(tabs, build), ...extra]);

/** "Which app: "Code" or "Cursor"?" */
export const askWhichApp = (names: readonly string[], build: (name: string) => ClauseResult | null) => askChoosing(whichApp(names), appOptions(names, build));

/** "Which preset: …?" / "Did you mean the preset …?" */
export const askWhichPreset = (names: readonly string[]) => askChoosing(whichPreset(names), appOptions(names, activatePreset));

/** HDMI-1 (left) — as "Which monitor: …?" names it. */
export const monitorLabel = (m: MonitorInfo) => `${m.name} (${m.roles.join('/') || 'no role'})`;
