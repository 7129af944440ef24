import { DESTRUCTIVE_TYPES } from '../protocol/commands';
import type { TabInfo } from '../protocol/context';
import type { PlannedCommand } from '../protocol/report';
import { isTabOp, tabOpDestructive, tabOpSummary, tabOpTargets } from './describe-tabs';
import { needsYes } from './open-url-target';
import { ageWords, picksByAge } from './tab-age';
import type { ResolvedCommand } from './resolve';
import { isWindowOp, placeWords, windowOpSummary, windowOpTargets } from './describe-windows';
import { tabLabel } from './words';
import { inWindowWords } from './browser-window-target';

// What a resolved command will do, in words — shown by --dry-run and by confirmations,
// which must list exactly what will close.

const tab = (t: TabInfo) => tabLabel(t);

/** The app acted on, and the name asked for when another app stands in for it ("Chromium (for "Google Chrome")"). */
const appWords = (cmd: { app: string; command: { app_name: string } }) =>
  cmd.app.toLowerCase() === cmd.command.app_name.toLowerCase() ? cmd.app : `${cmd.app} (for "${cmd.command.app_name}")`;

export function describePlanned(cmd: ResolvedCommand, index: number): PlannedCommand {
  return { index, type: cmd.type, summary: summary(cmd), destructive: isDestructive(cmd), targets: targets(cmd) };
}

/** Closing tabs or apps, and opening an address that is not a web page (the person typed it; they say yes first). */
const isDestructive = (cmd: ResolvedCommand) =>
  (isTabOp(cmd) ? tabOpDestructive(cmd) : DESTRUCTIVE_TYPES.has(cmd.type)) || (cmd.type === 'open_url' && needsYes(cmd.url));

function targets(cmd: ResolvedCommand): string[] {
  if (isWindowOp(cmd)) return windowOpTargets(cmd);
  if (isTabOp(cmd)) return tabOpTargets(cmd);
  switch (cmd.type) {
    case 'close_tab':
      return cmd.tabs.map(tab);
    case 'switch_tab':
      return [tab(cmd.tab)];
    case 'focus_app':
    case 'close_app':
    case 'place_app':
      return [cmd.app];
    case 'activate_preset':
      return [cmd.preset];
    case 'open_recent':
      return [cmd.path];
    default:
      return [];
  }
}

function summary(cmd: ResolvedCommand): string {
  if (isWindowOp(cmd)) return windowOpSummary(cmd);
  if (isTabOp(cmd)) return tabOpSummary(cmd);
  switch (cmd.type) {
    case 'list_apps':
      return 'list running apps';
    case 'list_tabs':
      return 'list Chrome tabs';
    case 'query':
      return `answer "${cmd.command.question}"`;
    case 'switch_tab':
      return `switch to ${tab(cmd.tab)}`;
    case 'open_url':
      return `open ${cmd.url} in a new tab${inWindowWords(cmd.command)}${needsYes(cmd.url) ? ' (not a web address: opened only because you typed it)' : ''}`;
    case 'close_tab': {
      const age = picksByAge(cmd.command) ? ` (${ageWords(cmd.command)})` : '';
      return `close ${cmd.tabs.map(tab).join(', ')}${age}`;
    }
    case 'focus_app':
      return `bring ${appWords(cmd)} to the front`;
    case 'close_app':
      return `quit ${appWords(cmd)}`;
    case 'place_app':
      return `move ${appWords(cmd)} to ${placeWords(cmd)}`;
    case 'activate_preset':
      return `apply preset "${cmd.preset}"`;
    case 'undo':
      return cmd.steps === 1 ? 'undo the last change' : `undo the last ${cmd.steps} changes`;
    case 'open_recent':
      return `open ${cmd.path} ${cmd.app ? `in ${cmd.app}` : 'with its default app'}`;
  }
}
