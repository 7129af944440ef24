import type { ClauseContext } from './clause-context';
import type { Command } from '../../protocol/commands';
import { MAX_CHOICES, ok, type ClauseResult } from './result';
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
import { weighOtherReadings } from './other-readings';
import { parseWithWindows } from './window-clause';

// One clause → one result, by the first rule that recognises its shape. The order matters
// where shapes overlap: presets before verbs they share ("focus mode", "start writing
// mode"), close before place ("get rid of" vs "get"), place before open/switch ("bring
// chrome to the left monitor" vs "bring up chrome"), a bare name last. Minimising and
// arranging come before close and switch ("hide slack", "switch chrome and slack"), a
// full-screen mode before presets ("put chrome in full screen mode" is no preset).

type Rule = (clause: string, ctx: ClauseContext) => ClauseResult | null;

const RULES: readonly Rule[] = [undoRule, listRule, windowStateRule, presetRule, arrangeRule, closeRule, placeRule, openRule, switchRule, bareRule];

export function parseClause(clause: string, ctx: ClauseContext): ClauseResult | null {
  // Window words ("the second xterm") and the question "which window?" wrap the rules (window-clause.ts).
  return parseWithWindows(clause, ctx, parseAsSaid);
}

function parseAsSaid(clause: string, ctx: ClauseContext): ClauseResult | null {
  const whole = parseShape(clause, ctx);
  if (whole?.kind === 'ok') return whole;
  return pickByOrdinal(clause, ctx) ?? whole;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const ORDINAL = new RegExp(`^(.*?)\\bthe (${ORDINALS.join('|')}|last) (.+)$`);

/**
 * "close the second hash tables video": the tab the ordinal picks among the tabs the words
 * match, in tab order — when without it the matcher would ask which of those tabs.
 */
function pickByOrdinal(clause: string, ctx: ClauseContext): ClauseResult | null {
  const m = ORDINAL.exec(clause.trim());
  if (!m) return null;
  const asked = parseShape(`${m[1]}the ${m[3]}`, ctx);
  if (asked?.kind !== 'ask' || !asked.choices) return null;
  const tabOf = (cmds: readonly Command[]) => {
    const c = cmds.length === 1 ? cmds[0]! : null;
    if (c?.type === 'switch_tab') return c.tab_index;
    return c?.type === 'close_tab' && c.tab_indices?.length === 1 ? c.tab_indices[0]! : null;
  };
  const tabs = asked.choices.filter((c) => tabOf(c.commands) !== null).sort((a, b) => tabOf(a.commands)! - tabOf(b.commands)!);
  const n = m[2] === 'last' ? tabs.length : ORDINALS.indexOf(m[2]!) + 1;
  // Every tab the words match must be among the choices, or "the second" would count from a partial list.
  if (tabs.length < 2 || tabs.length >= MAX_CHOICES || n > tabs.length) return null;
  return ok(...tabs[n - 1]!.commands);
}

function parseShape(clause: string, ctx: ClauseContext): ClauseResult | null {
  const c = clause.trim();
  if (!c) return null;
  return weighOtherReadings(c, firstRule(c, ctx), ctx);
}

function firstRule(c: string, ctx: ClauseContext): ClauseResult | null {
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
