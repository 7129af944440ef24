import { TAB_GROUP_COLORS, type TabGroupColor } from '../../../protocol/commands';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { companionDown } from '../tab-needs';
import { targetsResult, tabsOfPhrase } from '../tab-phrase';
import { typedForm } from '../site-text';
import { stripArticles, wordsOf } from '../text';

// "group my github tabs as Work", "group tabs 5 and 6 as Docs in purple", "put reddit and stack
// overflow in a group called Later", "add reddit to the Work group", "group the github tabs"
// (titled after what was said), "ungroup the work tabs", "take tab 3 out of its group".

// A colour is a colour, never part of the title: "as Reading in purple", "as reading (purple)"
// (brackets are gone after normalising), "as docs purple". A title that is only a colour stays a title.
const COLOR = `(?:\\s+(?:(?:in|coloured|colored|with colou?r|colou?r)\\s+)?(${[...TAB_GROUP_COLORS, 'gray'].join('|')}))?`;
const NAMED = new RegExp(`^(?:group|put|move|add)\\s+(.+?)\\s+(?:as|into|in|to|under)\\s+(?:a |the )?(?:new )?(?:tab )?group(?:\\s+(?:called|named|titled)\\s+(.+?))?${COLOR}$`);
const GROUP_AS = new RegExp(`^group\\s+(.+?)(?:\\s+(?:as|into|called|named|titled|under)\\s+(.+?))?${COLOR}$`);
const ADD_TO = new RegExp(`^(?:add|put|move)\\s+(.+?)\\s+(?:to|into|in)\\s+(?:the |my )?(.+?) group${COLOR}$`);
const UNGROUP = [/^(?:ungroup|un-group)\s+(.+)$/, /^(?:take|remove|move|get)\s+(.+?)\s+(?:out of|from)\s+(?:its|their|the|a|any)?\s*(?:tab )?groups?$/];

const colourOf = (word: string | undefined): TabGroupColor | undefined => (word ? ((word === 'gray' ? 'grey' : word) as TabGroupColor) : undefined);

/** "the github tabs" → "github": a title from what was said, when no title was given. */
function titleFrom(phrase: string): string | null {
  const words = wordsOf(stripArticles(phrase)).filter((w) => !['tab', 'tabs', 'all', 'my', 'the', 'these', 'those', 'open'].includes(w));
  return words.length ? words.join(' ') : null;
}

function group(phrase: string, title: string | null, colour: string | undefined, ctx: ClauseContext): ClauseResult {
  const down = chromeDown(ctx.snap) ?? companionDown(ctx.snap, 'Grouping tabs');
  if (down) return down;
  const said = title?.trim().replace(/^["']|["']$/g, '');
  // The title as typed ("Work", not "work").
  const name = said ? typedForm(said, ctx.original) : titleFrom(phrase);
  if (!name) return ask('Group them under which title? Say e.g. "group the github tabs as Work".', CONFIDENCE.unclearReference);
  const targets = tabsOfPhrase(phrase, ctx, { bareMeansAll: true });
  if (!targets) return ask('Which tabs should go in the group? Say e.g. "group the github tabs as Work".', CONFIDENCE.unclearReference);
  const color = colourOf(colour);
  return targetsResult(targets, (tabs) => ok({ type: 'group_tabs', tab_indices: tabs.map((t) => t.index), title: name, ...(color ? { color } : {}) }));
}

export function groupRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  for (const re of UNGROUP) {
    const m = re.exec(clause);
    if (!m) continue;
    const down = chromeDown(ctx.snap) ?? companionDown(ctx.snap, 'Ungrouping tabs');
    if (down) return down;
    const targets = tabsOfPhrase(m[1]!, ctx, { bareMeansAll: true });
    if (!targets) return ask('Which tabs? Say e.g. "ungroup the work tabs".', CONFIDENCE.unclearReference);
    return targetsResult(targets, (tabs) => {
      // Of several tabs, only those in a group (when the extension says which).
      const grouped = tabs.length > 1 ? tabs.filter((t) => t.group !== null) : tabs;
      if (grouped.length === 0) return ask('None of those tabs is in a group.', CONFIDENCE.noMatch);
      return ok({ type: 'ungroup_tabs', tab_indices: grouped.map((t) => t.index) });
    });
  }
  const named = NAMED.exec(clause);
  if (named) return group(named[1]!, named[2] ?? null, named[3], ctx);
  const addTo = ADD_TO.exec(clause);
  if (addTo) return group(addTo[1]!, addTo[2]!, addTo[3], ctx);
  const as = GROUP_AS.exec(clause);
  if (as) return group(as[1]!, as[2] ?? null, as[3], ctx);
  return null;
}
