import { windowsDown } from '../availability';
import { runningAppTarget } from '../app-targets';
import type { ClauseContext } from '../clause-context';
import { MONITOR_PHRASE, monitorWord } from '../position';
import { pickMonitor, targetOf } from '../monitor-words';
import { currentMonitor } from '../placement';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { runningApp } from '../app-matcher';

// Arranging several windows at once: "swap chrome and slack", "swap slack with the terminal",
// "tile chrome, slack and zoom", "put code and chrome side by side on the right monitor".
// Every app must be running and named exactly once; anything less is a question.

const SWAP = /^(?:swap|switch|exchange|flip|trade)(?: the (?:places|positions) of)?\s+(.+?)\s+(?:and|with|for)\s+(.+?)(?:\s+(?:around|places|positions|over))?$/;
const SWAP_ONE = /^(?:swap|exchange)\s+(\S+(?:\s+\S+)?)$/;
const ON = `(?:\\s+(?:on|to|across) ${MONITOR_PHRASE})?`;
const TILE_VERB = new RegExp(`^(?:tile|arrange|split)\\s+(.+?)(?:\\s+(?:side by side|next to each other|in columns|evenly))?${ON}$`);
const SIDE_BY_SIDE = new RegExp(`^(?:put |place |show |arrange |lay out |have )?(.+?)\\s+(?:side by side|next to each other)${ON}$`);
const LIST = /\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*/;

// Each pattern is tried only when the clause has what it cannot match without (its first words,
// or the words it ends on): a cold CLI call compiles every pattern it tries.
const SWAP_FIRST = /^(?:swap|switch|exchange|flip|trade)\b/;
/** "switch to …" is a switch, never a swap. */
const SWITCH_TO = /^switch\s+(?:to|over|back)\b/;
const TILE_FIRST = /^(?:tile|arrange|split)\s/;
const sideBySide = (clause: string) => clause.includes('side by side') || clause.includes('next to each other');

export function arrangeRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const swap = SWAP_FIRST.test(clause) && !SWITCH_TO.test(clause) ? SWAP.exec(clause) : null;
  if (swap) return swapApps(swap[1]!, swap[2]!, ctx);
  if (SWAP_ONE.test(clause)) return ask('Swap it with which app? Name both, e.g. "swap chrome and slack".', CONFIDENCE.unclearReference);
  const tile = (TILE_FIRST.test(clause) ? TILE_VERB.exec(clause) : null) ?? (sideBySide(clause) ? SIDE_BY_SIDE.exec(clause) : null);
  if (tile) return tileApps(tile[1]!, monitorWord(tile[2]), ctx);
  return null;
}

/** Each phrase as one running app; null as soon as one is no app (the clause is something else). */
function appsOf(phrases: readonly string[], ctx: ClauseContext): { names: string[] } | { result: ClauseResult } | null {
  const names: string[] = [];
  for (const phrase of phrases) {
    const t = runningAppTarget(phrase, ctx, true);
    if (!t) return null;
    if ('result' in t) return { result: t.result };
    if (names.some((n) => n.toLowerCase() === t.app.name.toLowerCase())) return { result: ask(`${t.app.name} is named twice. Which apps?`, CONFIDENCE.unclearReference) };
    names.push(t.app.name);
  }
  return { names };
}

function swapApps(a: string, b: string, ctx: ClauseContext): ClauseResult | null {
  const apps = appsOf([a, b], ctx);
  if (!apps) return null;
  if ('result' in apps) return apps.result;
  return windowsDown(ctx.snap) ?? ok({ type: 'swap_apps', app_names: apps.names });
}

function tileApps(list: string, word: ReturnType<typeof monitorWord>, ctx: ClauseContext): ClauseResult | null {
  const phrases = list.split(LIST).map((p) => p.trim()).filter(Boolean);
  if (phrases.length < 2) return null;
  if (phrases.length > 6) return ask('Tile at most six apps at a time. Which ones?', CONFIDENCE.noMatch);
  const apps = appsOf(phrases, ctx);
  if (!apps) return null;
  if ('result' in apps) return apps.result;
  const down = windowsDown(ctx.snap);
  if (down) return down;
  if (!word) return ok({ type: 'tile_apps', app_names: apps.names });
  const first = runningApp(ctx.snap, apps.names[0]!)!;
  const pick = pickMonitor(word, ctx.snap, currentMonitor(ctx.snap, first));
  if ('result' in pick) return pick.result;
  return ok({ type: 'tile_apps', app_names: apps.names, monitor: targetOf(pick.monitor, word, ctx.snap) });
}
