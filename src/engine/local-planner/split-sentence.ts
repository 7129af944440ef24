import type { Command } from '../../protocol/commands';
import type { ClauseContext } from './clause-context';
import { parseClause } from './parse-clause';
import { restOfScreen } from './rest-of-screen';
import { monitorOf, targetMonitor } from '../monitor-roles';
import type { ClauseResult } from './result';

// "chrome left and cursor right", "open chatgpt, then close all youtube tabs". A sentence is
// split only where every part parses: "hacker news" or "tabs 2, 4 and 6" contain separators
// but are one clause. The whole sentence is tried first; a split that understands every part
// and asks nothing beats a whole-sentence question; otherwise the whole sentence's question
// stands. A part without a verb borrows the previous part's ("quit slack and zoom").

const SEPARATOR = /\s*(?:,\s*(?:and\s+)?(?:then\s+)?|;\s*(?:and\s+)?(?:then\s+)?|\s+and\s+then\s+|\s+then\s+|\s+and\s+also\s+|\s+and\s+|\s+also\s+|\s+after that\s+|\s+plus\s+)\s*/g;

// Longest first: "switch to" before "switch", "close all" is "close".
const VERBS = [
  'take me to', 'bring me to', 'get me to', 'switch over to', 'switch back to', 'switch to', 'go back to', 'go over to', 'go to',
  'show me', 'bring up', 'pull up', 'jump to', 'focus on', 'navigate to', 'head to', 'flip to', 'change to', 'return to',
  'close out', 'close', 'quit', 'exit', 'kill', 'shut down', 'terminate', 'get rid of', 'dismiss',
  'open up', 'open', 'launch', 'start', 'run', 'fire up', 'visit',
  'move', 'put', 'place', 'send', 'throw', 'shift', 'drag', 'snap', 'push', 'dock', 'tile',
  'maximise', 'maximize', 'minimise', 'minimize', 'hide', 'fullscreen', 'center', 'centre', 'resize', 'make', 'set', 'check',
  'focus', 'show', 'activate', 'apply', 'enable', 'restore', 'undo', 'revert', 'list', 'display', 'select',
  'hard reload', 'reload', 'refresh', 'unpin', 'pin', 'unmute', 'mute', 'ungroup', 'group', 'save', 'stash', 'reopen', 'search', 'find',
];
const VERB_RE = new RegExp(`^(${VERBS.join('|')})\\b`);
const MAX_SEPARATORS = 12;

export const verbOf = (clause: string) => VERB_RE.exec(clause)?.[1] ?? null;

const appIn = (commands: readonly Command[]): string | null =>
  [...commands].reverse().find((c): c is Extract<Command, { app_name: string }> => 'app_name' in c)?.app_name ?? null;

function appOf(r: ClauseResult): string | null {
  return r.kind === 'ok' ? appIn(r.commands) : null;
}

/**
 * What "it" is after this clause: its app; after a question whose choices are different apps
 * ("focus the editor" — Code or Cursor?), nothing clear, so that a later "it" is asked about
 * rather than taken from an older turn; otherwise what it was before.
 */
function referentAfter(r: ClauseResult, before: string | null): string | null {
  const app = appOf(r);
  if (app || r.kind !== 'ask' || !r.choices) return app ?? before;
  const apps = new Set(r.choices.map((c) => appIn(c.commands)));
  if (apps.size === 1) return [...apps][0] ?? before;
  return null;
}

/** Where a clause's place_app commands put each app, for the clauses after it. */
function placedAfter(r: ClauseResult, ctx: ClauseContext): ReadonlyMap<string, string> | undefined {
  if (r.kind !== 'ok') return ctx.placed;
  let placed = ctx.placed;
  for (const c of r.commands) {
    if (c.type !== 'place_app') continue;
    const named = c.monitor ? targetMonitor(ctx.snap.monitors, c.monitor, null) : null;
    const m = c.bounds ? monitorOf(c.bounds, ctx.snap.monitors) : typeof named === 'string' ? null : named;
    if (!m) continue;
    placed = new Map(placed ?? []).set(c.app_name.toLowerCase(), m.name);
  }
  return placed;
}

/** A part with no verb tries the borrowed one first ("zoom" after "quit slack" is "quit zoom"). */
function parseWithVerb(text: string, verb: string | null, ctx: ClauseContext): ClauseResult | null {
  if (verb && !verbOf(text)) {
    const borrowed = parseClause(`${verb} ${text}`, ctx);
    // "maximize chrome and xterm left": "maximize xterm left" asks, "xterm left" is understood.
    if (borrowed?.kind === 'ask') {
      const own = parseClause(text, ctx);
      if (own?.kind === 'ok') return own;
    }
    if (borrowed) return borrowed;
  }
  return parseClause(text, ctx);
}

const allOk = (rs: readonly ClauseResult[]) => rs.every((r) => r.kind === 'ok');

type Memo = Map<string, ClauseResult[] | null>;

function parseFrom(text: string, verb: string | null, ctx: ClauseContext, memo: Memo): ClauseResult[] | null {
  // The same tail is reached through many split points; parse it once.
  const placed = [...(ctx.placed ?? new Map<string, string>())].map(([a, m]) => `${a}=${m}`).join(',');
  const key = `${verb ?? ''}\u0000${ctx.referent ?? ''}\u0000${placed}\u0000${text}`;
  if (memo.has(key)) return memo.get(key)!;
  const result = parseUncached(text, verb, ctx, memo);
  memo.set(key, result);
  return result;
}

/**
 * A command after a separator ("… as dinner and close them", "… then open slack") is a clause
 * of its own, never the end of a name: the split wins over a whole that swallowed it.
 */
function commandSplit(text: string, verb: string | null, ctx: ClauseContext, memo: Memo): ClauseResult[] | null {
  for (const sep of text.matchAll(SEPARATOR)) {
    const left = text.slice(0, sep.index).trim();
    const right = text.slice(sep.index! + sep[0].length).trim();
    if (!left || !verbOf(right)) continue;
    const l = parseWithVerb(left, verb, ctx);
    if (l?.kind !== 'ok') continue;
    const closing = closesThose(l, right);
    if (closing) return [closing];
    const next: ClauseContext = { ...ctx, referent: referentAfter(l, ctx.referent), placed: placedAfter(l, ctx) };
    const rest = parseFrom(right, verbOf(left) ?? verb, next, memo);
    if (rest && allOk(rest)) return [l, ...rest];
  }
  return null;
}

const CLOSE_THEM = /^(?:close|shut|close out) (?:them|those|these|them all|all of them|those tabs|these tabs|the tabs|the lot)$/;

/** "save the recipe tabs as dinner and close them": the saved tabs close as they are saved. */
function closesThose(l: ClauseResult, right: string): ClauseResult | null {
  if (l.kind !== 'ok' || !CLOSE_THEM.test(right)) return null;
  const last = l.commands[l.commands.length - 1];
  if (last?.type !== 'save_tabs') return null;
  return { kind: 'ok', commands: [...l.commands.slice(0, -1), { ...last, close: true }] };
}

function parseUncached(text: string, verb: string | null, ctx: ClauseContext, memo: Memo): ClauseResult[] | null {
  const whole = parseWithVerb(text, verb, ctx);
  if (whole?.kind === 'ok') return commandSplit(text, verb, ctx, memo) ?? [whole];
  const seps = [...text.matchAll(SEPARATOR)];
  let fallback: ClauseResult[] | null = null;
  if (seps.length > 0 && seps.length <= MAX_SEPARATORS) {
    for (const sep of seps) {
      const left = text.slice(0, sep.index).trim();
      const right = text.slice(sep.index! + sep[0].length).trim();
      if (!left || !right) continue;
      const l = parseWithVerb(left, verb, ctx);
      if (!l) continue;
      const closing = closesThose(l, right);
      if (closing) return [closing];
      const remainder = l.kind === 'ok' ? restOfScreen(right, l.commands, ctx) : null;
      if (remainder?.kind === 'ok') return [l, remainder];
      const next: ClauseContext = { ...ctx, referent: referentAfter(l, ctx.referent), placed: placedAfter(l, ctx) };
      const rest = parseFrom(right, verbOf(left) ?? verb, next, memo);
      if (!rest) continue;
      const all = [l, ...rest];
      if (allOk(all)) return all;
      fallback ??= all;
    }
  }
  // Not understood whole, nor split at a separator: placements said one after another, perhaps.
  const runOn = runOnSplit(text, verb, ctx, memo);
  if (runOn) return runOn;
  if (whole) return [whole];
  return fallback;
}

const MAX_RUN_ON_WORDS = 16;
/** A placement ends with where ("… left half", "… on the big screen"): only there can a run-on clause end. */
const PLACE_END = /^(?:half|third|thirds|quarter|corner|sixth|left|right|top|bottom|monitor|screen|display|side|middle|maximi[sz]ed|cent(?:er|re)d?)$/;
const placing = (r: ClauseResult) => r.kind === 'ok' && r.commands.length > 0 && r.commands.every((c) => c.type === 'place_app');

/**
 * "firefox left half cursor right half", "writer left third spotify middle third konsole right
 * third": placements run on without "and". A split between words counts only when the part
 * before it is a whole placement and everything after it is understood.
 */
function runOnSplit(text: string, verb: string | null, ctx: ClauseContext, memo: Memo): ClauseResult[] | null {
  const words = text.split(' ');
  if (words.length < 3 || words.length > MAX_RUN_ON_WORDS) return null;
  for (let i = 2; i < words.length; i++) {
    if (!PLACE_END.test(words[i - 1]!)) continue;
    const left = words.slice(0, i).join(' ');
    const l = parseWithVerb(left, verb, ctx);
    if (!l || !placing(l)) continue;
    const next: ClauseContext = { ...ctx, referent: referentAfter(l, ctx.referent), placed: placedAfter(l, ctx) };
    const rest = parseFrom(words.slice(i).join(' '), verbOf(left) ?? verb, next, memo);
    if (rest && allOk(rest)) return [l, ...rest];
  }
  return null;
}

/** Every clause's result, in order; null when some part of the sentence was not understood. */
export function parseSentence(text: string, ctx: ClauseContext): ClauseResult[] | null {
  return parseFrom(text, null, ctx, new Map());
}
