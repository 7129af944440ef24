import type { TabInfo } from '../protocol/context';
import { ageWords, picksByAge } from './tab-age';
import type { TabOp } from './tab-op-types';
import { tabLabel } from './words';
import { inWindowWords, moveToWords } from './browser-window-target';

// The tab manager's operations in words, for --dry-run, confirmations and undo labels.

export { isTabOp } from './tab-op-types';

const list = (tabs: readonly TabInfo[]) => tabs.map(tabLabel).join(', ');

/** Closing tabs (also when saving them "for later", or moving them by reopening: their page state is lost). */
export function tabOpDestructive(cmd: TabOp): boolean {
  switch (cmd.type) {
    case 'close_duplicate_tabs':
      return true;
    case 'save_tabs':
      return cmd.command.close === true;
    case 'move_tabs':
      return cmd.by_reopening;
    default:
      return false;
  }
}

export function tabOpTargets(cmd: TabOp): string[] {
  switch (cmd.type) {
    case 'search_tabs':
      return cmd.pool ? cmd.pool.map(tabLabel) : [];
    case 'count_tabs_by_domain':
    case 'restore_tabs':
      return cmd.type === 'restore_tabs' ? [cmd.name] : [];
    default:
      return cmd.tabs.map(tabLabel);
  }
}

export function tabOpSummary(cmd: TabOp): string {
  switch (cmd.type) {
    case 'search_tabs': {
      const c = cmd.command;
      const what = c.query !== undefined ? `"${c.query}"${c.page_text ? ' (page text too)' : ''}` : null;
      const age = picksByAge(c) ? ageWords(c) : null;
      return `find tabs ${[what && `matching ${what}`, age].filter(Boolean).join(', ')}${c.tab_indices ? ` among tabs ${c.tab_indices.join(', ')}` : ''}`;
    }
    case 'count_tabs_by_domain':
      return 'count tabs per site';
    case 'reload_tabs':
      return `${cmd.command.ignore_cache ? 'hard-reload (bypassing the cache)' : 'reload'} ${list(cmd.tabs)}`;
    case 'move_tabs': {
      const where = moveToWords(cmd.to, cmd.command.position);
      const how = cmd.by_reopening ? ' by reopening them there and closing them here (without the companion extension their history and page state are lost)' : '';
      return `move ${list(cmd.tabs)} to ${where}${how}`;
    }
    case 'close_duplicate_tabs':
      return `close duplicate ${list(cmd.tabs)} (keeping ${list(cmd.kept)})`;
    case 'save_tabs':
      return `save ${list(cmd.tabs)} as "${cmd.name}"${cmd.command.close ? ', then close them' : ''}`;
    case 'restore_tabs':
      return `reopen the saved tabs "${cmd.name}"${inWindowWords(cmd.command)}`;
    case 'pin_tabs':
      return `${cmd.command.pinned ? 'pin' : 'unpin'} ${list(cmd.tabs)}`;
    case 'mute_tabs':
      return `${cmd.command.muted ? 'mute' : 'unmute'} ${list(cmd.tabs)}`;
    case 'group_tabs':
      return `group ${list(cmd.tabs)} as "${cmd.command.title}"${cmd.command.color ? ` (${cmd.command.color})` : ''}`;
    case 'ungroup_tabs':
      return `take ${list(cmd.tabs)} out of their groups`;
  }
}
