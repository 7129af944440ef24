import type { ClauseResult } from '../result';
import { ok } from '../result';

// Questions go to the executor as they were asked ({type:'query'}); it answers countable
// ones from the snapshot and open ones with the LLM. Only sentences that are questions in
// form count: a question word or an auxiliary first.

const WH = /^(?:how|what|which|where|when|why|who|whose|whats|hows|wheres|whos)\b/;
// "is zoom running" is a question even unpunctuated; "do it again" is not, so "do" needs its "?".
const AUX = /^(?:is|are|am|was|were|has|have i|will|should|can i|could i|may i)\b/;
const AUX_ASKED = /^(?:do|does|did|had|have|would|any)\b/;
const TELL = /^(?:tell me|count|describe|explain|summari[sz]e|remind me)\b/;

/** `clause`: normalised, fillers stripped; `typed`: the sentence as typed. */
export function isQuestion(clause: string, typed: string): boolean {
  const asked = /\?\s*$/.test(typed);
  // "show me how many tabs…", "let me know which…": a question wrapped in a request.
  const inner = clause.replace(/^(?:show me|let me know|i wonder|do you know|can you tell me|i want to know)\s+(?=how|what|which|where|when|why|who|whether|if)/, '');
  if (inner !== clause) return true;
  return WH.test(clause) || TELL.test(clause) || AUX.test(clause) || (AUX_ASKED.test(clause) && asked);
}

export const questionResult = (typed: string): ClauseResult => ok({ type: 'query', question: typed.trim() });
