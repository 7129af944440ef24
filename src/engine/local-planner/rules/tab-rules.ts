import type { ClauseContext } from '../clause-context';
import type { ClauseResult } from '../result';
import { closeAgedRule } from './close-aged';
import { duplicatesRule } from './duplicates';
import { groupRule } from './group';
import { moveTabsRule } from './move-tabs';
import { openInWindowRule } from './open-in-window';
import { reloadRule } from './reload';
import { saveTabsRule } from './save-tabs';
import { searchTabsRule } from './search-tabs';
import { tabStateRule } from './tab-state';

// The tab manager's sentences, tried before the other rules: each recognises only its own
// verbs and shapes (a window as a move's destination, a saved set's name, age words), so the
// rules after it keep everything else. Duplicates and ages come before close reads "close X".

// A window as where an opened tab goes comes after saved sets ("open research in a new window" restores one).
const TAB_RULES = [duplicatesRule, closeAgedRule, tabStateRule, reloadRule, groupRule, moveTabsRule, saveTabsRule, searchTabsRule, openInWindowRule];

export function tabRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  for (const rule of TAB_RULES) {
    const r = rule(clause, ctx);
    if (r) return r;
  }
  return null;
}
