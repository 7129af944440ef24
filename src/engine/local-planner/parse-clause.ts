import type { ClauseContext } from './clause-context';
import type { ClauseResult } from './result';
import { bareRule } from './rules/bare';
import { closeRule } from './rules/close';
import { listRule } from './rules/list';
import { openRule } from './rules/open';
import { placeRule } from './rules/place';
import { presetRule } from './rules/preset';
import { switchRule } from './rules/switch';
import { undoRule } from './rules/undo';
import { tabRule } from './rules/tab-rules';
import { arrangeRule } from './rules/arrange';
import { windowStateRule } from './rules/window-state';
import { openRecentRule } from './rules/open-recent';

// One clause → one result, by the first rule that recognises its shape. The order matters
// where shapes overlap: presets before verbs they share ("focus mode", "start writing
// mode"), close before place ("get rid of" vs "get"), place before open/switch ("bring
// chrome to the left monitor" vs "bring up chrome"), a bare name last. Minimising and
// arranging come before close and switch ("hide slack", "switch chrome and slack"), a
// full-screen mode before presets ("put chrome in full screen mode" is no preset).

type Rule = (clause: string, ctx: ClauseContext) => ClauseResult | null;

const RULES: readonly Rule[] = [undoRule, listRule, windowStateRule, presetRule, arrangeRule, closeRule, placeRule, openRule, switchRule, bareRule];

export function parseClause(clause: string, ctx: ClauseContext): ClauseResult | null {
  const c = clause.trim();
  if (!c) return null;
  // A recent file or project, when the words say one is meant and one matches ("open the deskpilot project").
  const recent = openRecentRule(c, ctx);
  if (recent) return recent;
  // The tab manager's own verbs and shapes first (see rules/tab-rules.ts).
  const tab = tabRule(c, ctx);
  if (tab) return tab;
  for (const rule of RULES) {
    const r = rule(c, ctx);
    if (r) return r;
  }
  return null;
}
