import type { MonitorInfo, RunningApp } from '../../../protocol/context';
import { runningApp } from '../app-matcher';
import { runningAppTarget } from '../app-targets';
import { appOptions, monitorLabel } from '../choices';
import { windowsDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { pickMonitor, targetOf, type MonitorPick } from '../monitor-words';
import { centred, currentMonitor, halfOf, maximised, windowOf } from '../placement';
import { stripArticles } from '../text';
import { MONITOR_PHRASE, monitorWord, parseCenter, parsePosition, type Position } from '../position';
import { ask, CONFIDENCE, offer, ok, sequence, withChoices, type ClauseResult } from '../result';
import { isPronoun } from '../follow-up';
import { askWhichAppToPlace, namesSomething } from '../object-words';

// Moving and sizing windows: "chrome left", "move slack to the other monitor", "put cursor
// on the right half of the left monitor", "maximise terminal", "center terminal 1200x800".
// Conventions (they match how people picture their screens):
//   - "X left/right" with two or more monitors → place_app {monitor} (the executor keeps
//     the window's size and relative position); with a single monitor "left"/"right" can
//     only mean that half of it → bounds;
//   - halves, maximise and centring → bounds from the work area of the monitor named, else
//     of the monitor the app's window is on (placement.ts has the arithmetic). Bounds alone
//     say everything, so `monitor` is left out then;
//   - "middle" names the middle monitor when there are three, else means centred.

const PLACE_VERB = /^(?:move|put|place|send|throw|shift|drag|snap|push|dock|tile|position|bring|get|stick|park|toss|take)\s+(.+)$/;
const MAX_VERB = new RegExp(
  `^(?:maximi[sz]e|max out|max|fullscreen|full screen|full-screen|expand|enlarge)\\s+(.+?)(?:\\s+(?:on|to|onto|in) ${MONITOR_PHRASE})?$`,
);
const MAKE_MAX = /^(?:make|set|turn|blow up|stretch)\s+(.+?)\s+(?:to (?:the )?)?(?:full ?screen|full-screen|maximi[sz]ed|max(?:imum)? size|fill the screen|take up the (?:whole|full|entire) screen|full size|the whole screen)$/;
const MAX_TAIL = /^(.+?)\s+(?:full ?screen|full-screen|maximi[sz]ed?)$/;
const CENTER_VERB = /^(?:cent(?:er|re))\s+(.+)$/;
const FOR_APP = /^(.+?)\s+for\s+(.+)$/;
// "make xterm take the left two thirds", "have slack fill the right third", "make it the top half".
const MAKE_REGION = /^(?:make|have|let|set|turn)\s+(.+?)\s+(?:(?:take|fill|occupy|cover|use)(?: up)?\s+|(?:be|go)\s+(?:in\s+|on\s+|to\s+)?|into\s+)?(the\s+.+)$/;
const RESIZE_VERB = /^(?:resize|size|make|set)\s+(.+)$/;

// "almost maximize xterm", "make the terminal bigger", "shrink chrome a bit", "xterm smaller".
const ALMOST_VERB = new RegExp(`^(?:almost|nearly) (?:maximi[sz]e|max out|max|fill the screen with)\\s+(.+?)(?:\\s+(?:on|to|onto|in) ${MONITOR_PHRASE})?$`);
const STEP_MAKE = /^(?:make|get|resize)\s+(.+?)\s+(?:a (?:bit|little|lot|tad) |slightly |much |way |even )?(bigger|larger|smaller|tinier)$/;
const STEP_VERB = /^(grow|shrink)\s+(.+?)(?:\s+(?:a (?:bit|little|tad)|slightly))?$/;
const STEP_TAIL = /^(.+?)\s+(?:a (?:bit|little|tad) )?(bigger|larger|smaller)$/;
const GROWS: Record<string, 'larger' | 'smaller'> = { bigger: 'larger', larger: 'larger', grow: 'larger', smaller: 'smaller', tinier: 'smaller', shrink: 'smaller' };

// "shrink alacritty to 800x600 centered": a size said, not a step.
const SIZE_TO = /^(?:shrink|grow|resize|size|scale)\s+(.+?)\s+to\s+(\d{2,5}\s*(?:x|\u00d7|by)\s*\d{2,5}.*)$/;

export function placeRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const sized = SIZE_TO.exec(clause);
  const size = sized ? parseCenter(`${sized[1]} ${sized[2]}`) : null;
  if (size?.size) return placeOne(size.app, { kind: 'center', size: size.size, monitor: size.monitor }, ctx, true);
  let m = ALMOST_VERB.exec(clause);
  if (m) return placeOne(m[1]!, { kind: 'layout', layout: 'almost_maximize', monitor: monitorWord(m[2]) }, ctx, true);
  m = STEP_MAKE.exec(clause);
  if (m) return placeOne(m[1]!, { kind: 'layout', layout: GROWS[m[2]!]!, monitor: null }, ctx, true);
  m = STEP_VERB.exec(clause);
  if (m) return placeOne(m[2]!, { kind: 'layout', layout: GROWS[m[1]!]!, monitor: null }, ctx, true);
  m = STEP_TAIL.exec(clause);
  if (m) {
    const r = placeOne(m[1]!, { kind: 'layout', layout: GROWS[m[2]!]!, monitor: null }, ctx, false);
    if (r) return r;
  }

  m = MAX_VERB.exec(clause) ?? MAKE_MAX.exec(clause);
  if (m) return placeOne(m[1]!, { kind: 'max', monitor: monitorWord(m[2]) }, ctx, true);

  m = MAKE_REGION.exec(clause);
  const region = m ? parsePosition(m[2]!) : null;
  if (m && region && region.kind !== 'monitor') {
    // Only when it comes to a placement: "make terminal 1000 by 700 in the middle" is a size, below.
    const r = placeOne(m[1]!, region, ctx, true);
    if (r?.kind === 'ok') return r;
  }

  m = CENTER_VERB.exec(clause);
  if (m) {
    const c = parseCenter(`${m[1]} centred`);
    if (c) return placeOne(c.app, { kind: 'center', size: c.size, monitor: c.monitor }, ctx, true);
  }
  m = RESIZE_VERB.exec(clause);
  if (m) {
    const c = parseCenter(m[1]!);
    if (c?.size) return placeOne(c.app, { kind: 'center', size: c.size, monitor: c.monitor }, ctx, true);
  }

  // "next display for chrome", "left half for slack": the place first, then whose it is.
  m = FOR_APP.exec(clause);
  const forPos = m ? parsePosition(m[1]!) : null;
  if (m && forPos) {
    const r = placeOne(m[2]!, forPos, ctx, true);
    if (r) return r;
  }

  // "and now the left half" after moving an app: the position alone, for the app just acted on.
  const alone = parsePosition(clause);
  if (alone && ctx.referent) return placeOne('it', alone, ctx, true);
  if (alone && (alone.kind !== 'monitor' || alone.named)) {
    return ask('Which app should go there? Name it, e.g. "cursor on the left half".', CONFIDENCE.unclearReference);
  }

  const verb = PLACE_VERB.exec(clause);
  // "move spotify down to the laptop screen": the direction is the monitor's, said twice.
  const body = verb ? verb[1]!.replace(/\s+(?:down|up|over|back|across)(?=\s+(?:to|on|onto|in)\b)/, '') : clause;
  const explicit = verb !== null;
  const max = MAX_TAIL.exec(body);
  if (max) {
    const r = placeOne(max[1]!, { kind: 'max', monitor: null }, ctx, explicit);
    if (r) return r;
  }
  const c = parseCenter(body);
  if (c) {
    const r = placeOne(c.app, { kind: 'center', size: c.size, monitor: c.monitor }, ctx, explicit);
    if (r) return r;
  }
  return splitAppAndPosition(body, ctx, explicit);
}

/** "google chrome to the left half": try each split of app words | position words. */
function splitAppAndPosition(text: string, ctx: ClauseContext, explicit: boolean): ClauseResult | null {
  const words = text.split(' ');
  let firstAsk: ClauseResult | null = null;
  for (let i = 1; i < words.length; i++) {
    const pos = parsePosition(words.slice(i).join(' '));
    if (!pos) continue;
    const r = placeMany(words.slice(0, i).join(' '), pos, ctx, explicit);
    if (r?.kind === 'ok') return r;
    firstAsk ??= r;
  }
  return firstAsk;
}

/** "chrome and slack to the left monitor": each app the same way. */
function placeMany(appPhrase: string, pos: Position, ctx: ClauseContext, explicit: boolean): ClauseResult | null {
  const one = placeOne(appPhrase, pos, ctx, explicit);
  if (one?.kind === 'ok' || pos.kind !== 'monitor') return one;
  const parts = appPhrase.split(/\s*,\s*|\s+and\s+|\s*&\s*/).filter(Boolean);
  if (parts.length < 2) return one;
  // The first part that asks decides; when it offers choices and every other part is
  // understood, each choice carries the other parts' moves too.
  const results: ClauseResult[] = [];
  let asking: ClauseResult | null = null;
  for (const part of parts) {
    const r = placeOne(part, pos, ctx, explicit);
    if (one && r?.kind !== 'ok') return one;
    if (!r) return asking && withChoices(asking, undefined);
    if (r.kind === 'ask') {
      if (asking) return withChoices(asking, undefined);
      if (!r.choices) return r;
      asking = r;
    }
    results.push(r);
  }
  return sequence(results);
}

function placeOne(appPhrase: string, pos: Position, ctx: ClauseContext, explicit: boolean): ClauseResult | null {
  // "move the to the left", "maximise my": no app named (see object-words.ts); without a verb, not this rule's clause.
  if (!isPronoun(appPhrase) && !isPronoun(stripArticles(appPhrase)) && !namesSomething(appPhrase)) {
    return explicit ? askWhichAppToPlace(pos.kind === 'max' ? 'maximise' : pos.kind === 'center' ? 'centre' : 'move') : null;
  }
  const target = runningAppTarget(appPhrase, ctx, !explicit);
  if (!target) return null;
  const down = windowsDown(ctx.snap);
  if (down) return down;
  if ('result' in target) return target.among ? offer(target.result, appOptions(target.among.map((a) => a.name), (name) => placeApp(runningApp(ctx.snap, name)!, pos, ctx))) : target.result;
  return placeApp(target.app, pos, ctx);
}

/** A question about which monitor, offering the placement on each monitor it could mean. */
function onWhich(pick: Extract<MonitorPick, { result: ClauseResult }>, place: (m: MonitorInfo) => ClauseResult): ClauseResult {
  return pick.among ? offer(pick.result, pick.among.map((m) => ({ label: monitorLabel(m), result: place(m) }))) : pick.result;
}

function placeApp(app: RunningApp, pos: Position, ctx: ClauseContext): ClauseResult {
  const win = windowOf(app);
  if (!win) return ask(`${app.name} has no open window to place.`, CONFIDENCE.noMatch);
  const snap = ctx.snap;
  const current = currentOf(app, ctx);

  // With one monitor, "left"/"right" can only mean that half of it.
  if (pos.kind === 'monitor' && !pos.named && snap.monitors.length === 1 && (pos.monitor === 'left' || pos.monitor === 'right')) {
    pos = { kind: 'half', half: pos.monitor, monitor: null };
  }
  // "chrome middle" with three monitors: the middle monitor.
  if (pos.kind === 'center' && pos.bare && snap.monitors.length >= 3) pos = { kind: 'monitor', monitor: 'middle' };

  if (pos.kind === 'monitor') {
    const word = pos.monitor;
    const role = word === 'left' || word === 'right' || word === 'main' ? { role: word } : null;
    if (role) return ok({ type: 'place_app', app_name: app.name, monitor: role.role });
    const toMonitor = (m: MonitorInfo): ClauseResult => ok({ type: 'place_app', app_name: app.name, monitor: targetOf(m, word, snap) });
    const pick = pickMonitor(word, snap, current);
    return 'result' in pick ? onWhich(pick, toMonitor) : toMonitor(pick.monitor);
  }

  const p = pos;
  const inArea = (monitor: MonitorInfo): ClauseResult => {
    const area = monitor.work_area;
    // A named region is laid out by the system when it runs; a monitor only when one was named.
    if (p.kind === 'layout') {
      return ok({ type: 'place_app', app_name: app.name, layout: p.layout, ...(p.monitor ? { monitor: targetOf(monitor, p.monitor, snap) } : {}) });
    }
    if (p.kind === 'half') return ok({ type: 'place_app', app_name: app.name, bounds: halfOf(area, p.half) });
    if (p.kind === 'max') return ok({ type: 'place_app', app_name: app.name, bounds: maximised(area) });
    const [w, h] = p.size ?? [win.bounds[2] - win.bounds[0], win.bounds[3] - win.bounds[1]];
    const bounds = centred(area, w, h);
    if (!bounds) {
      return ask(`${w}x${h} does not fit on ${monitor.name} (its usable area is ${area[2] - area[0]}x${area[3] - area[1]}). What size?`, CONFIDENCE.noMatch);
    }
    return ok({ type: 'place_app', app_name: app.name, bounds });
  };
  if (p.monitor) {
    const pick = pickMonitor(p.monitor, snap, current);
    return 'result' in pick ? onWhich(pick, inArea) : inArea(pick.monitor);
  }
  if (current) return inArea(current);
  return onWhich({ result: ask(`Which monitor? ${app.name}'s window is on none of them.`, CONFIDENCE.ambiguous), among: snap.monitors }, inArea);
}

/** Where the app's window is — or will be, after an earlier clause of the same sentence moved it. */
function currentOf(app: RunningApp, ctx: ClauseContext): MonitorInfo | null {
  const moved = ctx.placed?.get(app.name.toLowerCase());
  const m = moved ? ctx.snap.monitors.find((x) => x.name === moved) : undefined;
  return m ?? currentMonitor(ctx.snap, app);
}
