import type { Command } from '../../protocol/commands';
import type { ContextSnapshot, RunningApp, WindowInfo } from '../../protocol/context';
import { inScreenOrder, windowsMeant } from '../resolve-windows';
import { runningApp } from './app-matcher';
import type { ClauseContext } from './clause-context';
import { joinList, shorten } from './messages';
import { ask, CONFIDENCE, sequence, type Choice, type ClauseResult } from './result';
import { findWindowRef, type WindowRef } from './window-refs';

// One window of several, around the clause rules (issue 27). The rules know apps, not windows;
// so a clause that names a window ("the second xterm left half") is read with the app's name
// in its place, against a view of the desk in which that app has only that window — every
// rule then lays out, measures and checks against the window meant — and the commands get its
// window_id. "both terminals left" is read once per window. A sentence whose window commands
// name an app with several windows and no window ("xterm right" with three xterms) asks which,
// each window a ready choice (whichWindowOf, after the sentence is understood, so that a split
// "chrome left and cursor right" is not lost to the question); commands about the app as a
// whole (open, switch to, quit) do not ask.

type Parse = (clause: string, ctx: ClauseContext) => ClauseResult | null;

/** `parse` (the clause rules) with the window references resolved. */
export function parseWithWindows(clause: string, ctx: ClauseContext, parse: Parse): ClauseResult | null {
  const ref = /\btabs?\b/.test(clause) ? null : findWindowRef(clause, ctx.snap);
  const byRef = ref ? onReference(clause, ref, ctx, parse) : null;
  if (byRef?.kind === 'ok') return byRef;
  const r = parse(clause, ctx);
  return r?.kind === 'ok' ? r : (byRef ?? r);
}

/** The desk as the rules should see it when `w` is the window meant: its app has that window only. */
function narrowed(snap: ContextSnapshot, app: RunningApp, w: WindowInfo): ContextSnapshot {
  return { ...snap, running_apps: snap.running_apps.map((a) => (a.name === app.name ? { ...a, windows: [w] } : a)) };
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The commands with `w`'s id wherever they act on `app`'s window without one. */
function pinned(commands: readonly Command[], app: RunningApp, w: WindowInfo): Command[] {
  return commands.map((c) => {
    switch (c.type) {
      case 'place_app':
      case 'set_app_state':
      case 'focus_app':
        return same(c.app_name, app.name) && !c.window_id ? { ...c, window_id: w.id } : c;
      case 'swap_apps':
      case 'tile_apps': {
        if (!c.app_names.some((n) => same(n, app.name))) return c;
        const ids = c.app_names.map((n, i) => c.window_ids?.[i] ?? (same(n, app.name) ? w.id : null));
        return { ...c, window_ids: ids };
      }
      default:
        return c;
    }
  });
}

const appsOf = (c: Command): string[] =>
  c.type === 'place_app' || c.type === 'set_app_state' || c.type === 'focus_app' || c.type === 'close_app'
    ? [c.app_name]
    : c.type === 'swap_apps' || c.type === 'tile_apps'
      ? c.app_names
      : [];

/** Read with the app's name for the window words, once per window meant. */
function onReference(clause: string, ref: WindowRef, ctx: ClauseContext, parse: Parse): ClauseResult | null {
  const rewritten = clause.replace(ref.said, ref.app.name.toLowerCase());
  const acts = (r: ClauseResult | null) => r?.kind === 'ok' && r.commands.some((c) => appsOf(c).some((n) => same(n, ref.app.name)));
  if ('ask' in ref) return acts(parse(rewritten, ctx)) ? ask(`${ref.ask} ${listed(inScreenOrder(ref.app.windows))}`, CONFIDENCE.ambiguous) : null;
  const results = ref.windows.map((w) => {
    const r = parse(rewritten, { ...ctx, snap: narrowed(ctx.snap, ref.app, w) });
    return r?.kind === 'ok' ? { kind: 'ok' as const, commands: pinned(r.commands, ref.app, w) } : r;
  });
  // "tile both chromium windows", "swap the xterms": one command over the windows, not one per window.
  if (ref.all && results.some((r) => r?.kind !== 'ok')) return asSeveralApps(clause, ref, ctx, parse) ?? null;
  const first = results[0];
  // Words that only looked like a window's ("save this window as research"): not this reading.
  if (!first || results.some((r) => r === null) || (first.kind === 'ok' && !acts(first))) return null;
  if (first.kind === 'ok' && first.commands.some((c) => c.type === 'close_app')) {
    // Quitting closes every window of the app: right for "close every xterm window", not for one of them.
    if (ref.all) return first;
    return ask(`DeskPilot cannot close one window of ${ref.app.name} on its own; "quit ${ref.app.name.toLowerCase()}" closes all ${ref.app.windows.length}.`, CONFIDENCE.noMatch);
  }
  return sequence(results as ClauseResult[]);
}

/**
 * Swap and tile take each app once: the windows are read as apps of their own ("xterm 1",
 * "xterm 2" on a desk where each has one of them), and the commands given back their app's
 * name and the windows' ids. Only swaps and tiles come out of this reading.
 */
function asSeveralApps(clause: string, ref: Extract<WindowRef, { all: boolean }>, ctx: ClauseContext, parse: Parse): ClauseResult | null {
  const names = ref.windows.map((_, i) => `${ref.app.name} ${i + 1}`);
  const running_apps = ctx.snap.running_apps.flatMap((a) => (a.name === ref.app.name ? ref.windows.map((w, i) => ({ ...a, name: names[i]!, windows: [w] })) : [a]));
  const r = parse(clause.replace(ref.said, joinList(names.map((n) => n.toLowerCase()), 'and')), { ...ctx, snap: { ...ctx.snap, running_apps } });
  if (r?.kind !== 'ok' || !r.commands.every((c) => c.type === 'swap_apps' || c.type === 'tile_apps')) return null;
  const windowOf = (n: string) => ref.windows[names.findIndex((x) => same(x, n))] ?? null;
  const commands = r.commands.map((c) => {
    const arranged = c as Extract<Command, { type: 'swap_apps' | 'tile_apps' }>;
    const ids = arranged.app_names.map((n, i) => windowOf(n)?.id ?? arranged.window_ids?.[i] ?? null);
    return { ...arranged, app_names: arranged.app_names.map((n) => (windowOf(n) ? ref.app.name : n)), window_ids: ids };
  });
  return { kind: 'ok', commands };
}

/** An app a window command names without a window, whose windows the command could mean several of. */
function unqualified(commands: readonly Command[], snap: ContextSnapshot): { app: RunningApp; meant: WindowInfo[] } | null {
  for (const c of commands) {
    if (c.type !== 'place_app' && c.type !== 'set_app_state' && c.type !== 'swap_apps' && c.type !== 'tile_apps') continue;
    const names = c.type === 'swap_apps' || c.type === 'tile_apps' ? c.app_names.filter((_, i) => !c.window_ids?.[i]) : c.window_id ? [] : [c.app_name];
    for (const name of names) {
      const app = runningApp(snap, name);
      if (!app || app.windows.length < 2) continue;
      return { app, meant: windowsMeant(app.windows, c.type === 'set_app_state' && c.state === 'normal') };
    }
  }
  return null;
}

export type WindowQuestion = { reason: string; choices: Choice[] } | { commands: Command[] };

/**
 * A sentence's commands, checked for an app with several windows named without one ("xterm
 * right" with three xterms): the question which, each window a choice — the sentence planned
 * again (`replan`) on the desk where the app has that window only. With one window the command
 * can mean (the others minimised), that one's commands. null: nothing to ask.
 */
export function whichWindowOf(commands: readonly Command[], snap: ContextSnapshot, replan: (snap: ContextSnapshot) => Command[] | null): WindowQuestion | null {
  const found = unqualified(commands, snap);
  if (!found) return null;
  const { app } = found;
  const forWindow = (w: WindowInfo) => {
    const again = replan(narrowed(snap, app, w));
    return again && pinned(again, app, w);
  };
  const meant = inScreenOrder(found.meant);
  if (meant.length === 1) {
    const only = forWindow(meant[0]!);
    return only ? { commands: only } : null;
  }
  const reason = `${app.name} has ${meant.length} windows — which one? ${listed(meant)} (or say e.g. "the second ${app.name.toLowerCase()}", or "all ${app.name.toLowerCase()} windows").`;
  const choices: Choice[] = [];
  for (const w of meant) {
    const cmds = forWindow(w);
    if (cmds) choices.push({ label: windowChoice(app, w), commands: cmds });
  }
  return { reason, choices };
}

/** `"logs" on LEFT`: a window as a question lists it (a UI numbers the choices itself). */
const windowLabel = (w: WindowInfo) => `"${shorten(w.title || 'untitled')}"${w.monitor ? ` on ${w.monitor}` : ''}${w.minimized ? ' (minimised)' : ''}`;

/** A choice's label: `XTerm "logs" on LEFT`. */
const windowChoice = (app: RunningApp, w: WindowInfo) => `${app.name} ${windowLabel(w)}`;

/** 1 "logs" on LEFT, 2 "build" on LEFT, 3 "vim notes" on RIGHT (minimised). */
const listed = (windows: readonly WindowInfo[]) => windows.map((w, i) => `${i + 1} ${windowLabel(w)}`).join(', ');
