import type { ContextSnapshot, TabInfo } from '../../protocol/context';
import { ageWords, agesUnknown, pickByAge, type AgePick } from '../tab-age';
import { companionOk } from '../resolve-tabs';
import { ask, CONFIDENCE, type ClauseResult } from './result';

// What a tab-manager sentence needs before it can be answered with commands: the companion
// extension (pin, mute, group), tab ages, and an age pick that finds tabs at all. Asking now
// says why, where the resolver would only refuse the batch.

export function companionDown(snap: ContextSnapshot, doing: string): ClauseResult | null {
  if (companionOk(snap)) return null;
  const how = snap.sources.companion?.message ?? 'The DeskPilot companion extension was not found; `deskpilot chrome status` says how to add it.';
  return ask(`${doing} needs the DeskPilot companion extension. ${how}`, CONFIDENCE.unavailable);
}

/** null when the age pick finds tabs among `pool`; else the question saying why it cannot. */
export function ageProblem(pool: readonly TabInfo[], age: AgePick, snap: ContextSnapshot): ClauseResult | null {
  const picked = pickByAge(pool, age, snap);
  if (!picked.ok) return ask(`I can't tell: ${agesUnknown(snap)}`, CONFIDENCE.unavailable);
  if (picked.tabs.length === 0) return ask(`No ${pool.length === snap.tabs.length ? 'open tab' : 'such tab'} is ${ageWords(age)}.`, CONFIDENCE.noMatch);
  return null;
}
