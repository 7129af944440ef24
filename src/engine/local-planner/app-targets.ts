import type { RunningApp } from '../../protocol/context';
import { matchApp, runningApp } from './app-matcher';
import type { ClauseContext } from './clause-context';
import { resolvePronoun } from './follow-up';
import { noApp, whichApp } from './messages';
import { ask, CONFIDENCE, type ClauseResult } from './result';
import { hasSeparator, stripArticles } from './text';

// An app phrase (or "it") → one running app, for the commands that need a running window
// (place_app, close_app). `lenient`: return null instead of asking when the phrase names no
// app at all, because the clause may not be about an app ("chrome left and cursor" …).

/** `among`: the question is which of these running apps (each can be offered as a choice). */
export type RunningTarget = { app: RunningApp } | { result: ClauseResult; among?: RunningApp[] };

const running = (ctx: ClauseContext) => ctx.snap.running_apps.map((a) => a.name);

export function runningAppTarget(phrase: string, ctx: ClauseContext, lenient: boolean): RunningTarget | null {
  const p = stripArticles(phrase.replace(/\s+(?:app|application|window|program)$/, ''));
  // "the window" / "that app" as a whole is a pronoun; without its noun "the" would be no name at all.
  const pronoun = resolvePronoun(phrase.trim(), ctx.referent) ?? resolvePronoun(p, ctx.referent);
  if (pronoun && 'result' in pronoun) return pronoun;
  if (pronoun) {
    const app = runningApp(ctx.snap, pronoun.app);
    if (app) return { app };
    // Launched earlier in this very sentence: it has no window yet to move.
    return { result: ask(`${pronoun.app} is not running yet, so it has no window to move; open it first, then say where it goes.`, CONFIDENCE.noMatch) };
  }
  const m = matchApp(p, ctx.snap, 'running');
  if (m.kind === 'one') return { app: runningApp(ctx.snap, m.name)! };
  if (m.kind === 'many') {
    const among = m.names.map((n) => runningApp(ctx.snap, n)).filter((a) => a !== null);
    return { result: ask(whichApp(m.names), CONFIDENCE.ambiguous), among };
  }
  const installed = matchApp(p, ctx.snap, 'any');
  if (installed.kind === 'one') return { result: ask(`${installed.name} is not running.`, CONFIDENCE.noMatch) };
  // "terminal to the left monitor and make it" is no app's name but two clauses run together.
  if (lenient || hasSeparator(p)) return null;
  return { result: ask(noApp(p, running(ctx), 'running'), CONFIDENCE.noMatch) };
}
