import type { Turn } from '../../protocol/planning';
import { ask, CONFIDENCE, type ClauseResult } from './result';

// "now put it on the right", "move that window to the left monitor": the app the previous
// turn acted on. Only an unambiguous previous turn counts — one that asked a question, or
// acted on several apps, leaves "it" unclear and the user is asked.

const PRONOUN = /^(?:it|that|this|them|that one|this one|the same one|that app|this app|that window|this window|the window|the app|same app|the same app|that program)$/;

export const isPronoun = (phrase: string) => PRONOUN.test(phrase.trim());

const APP_COMMANDS = new Set(['focus_app', 'place_app', 'close_app', 'open_recent', 'set_app_state']);

/** The one app the most recent turn acted on, or null. */
export function referentFromTurns(turns: readonly Turn[]): string | null {
  const last = turns[turns.length - 1];
  if (!last) return null;
  const env = last.envelope as { commands?: unknown; needs_clarification?: unknown } | null | undefined;
  if (!env || typeof env !== 'object' || env.needs_clarification === true || !Array.isArray(env.commands)) return null;
  const apps = new Set<string>();
  for (const c of env.commands as unknown[]) {
    if (!c || typeof c !== 'object') continue;
    const { type, app_name } = c as { type?: unknown; app_name?: unknown };
    if (typeof type === 'string' && APP_COMMANDS.has(type) && typeof app_name === 'string' && app_name.trim()) apps.add(app_name);
  }
  return apps.size === 1 ? [...apps][0]! : null;
}

/** For a pronoun: the referent app, or a question when there is none. null: not a pronoun. */
export function resolvePronoun(phrase: string, referent: string | null): { app: string } | { result: ClauseResult } | null {
  if (!isPronoun(phrase)) return null;
  if (!referent) {
    return { result: ask(`Which app do you mean by "${phrase.trim()}"? Name it, e.g. "move Cursor to the left monitor".`, CONFIDENCE.unclearReference) };
  }
  return { app: referent };
}
