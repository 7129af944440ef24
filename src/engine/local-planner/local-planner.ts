import { MAX_QUESTION_LENGTH, type Command, type Envelope } from '../../protocol/commands';
import type { Planner, PlannerAnswer, PlanRequest } from '../ports';
import { unavailable } from './availability';
import type { ClauseContext } from './clause-context';
import { referentFromTurns } from './follow-up';
import { listedItemRule } from './listed-item';
import { joinList, NOT_UNDERSTOOD, quote, tabChoice, tabLabel } from './messages';
import { phrasingsFor, understoodIn, understoodWords } from './suggest';
import { CONFIDENCE, expandChoices, type Ask, type Choice, type ClauseResult } from './result';
import { isQuestion, questionResult } from './rules/question';
import { listRule } from './rules/list';
import { searchTabsRule } from './rules/search-tabs';
import { parseSentence, verbOf } from './split-sentence';
import { normalize, stripFillers, stripReason } from './text';
import { fixVerbSlips } from './verb-slips';
import { whichWindowOf } from './window-clause';

// The offline planner: a deterministic matcher for everyday sentences, answering in well
// under a millisecond with no network. It acts (confidence 1) only when it understood every
// clause and every name matched exactly one thing; otherwise it asks, naming the candidates,
// with confidence < 1 so that a caller in "auto" mode may hand the sentence to the LLM.
// It never guesses: a wrong action costs more than a question. When the question is a choice
// between things it found (two GitHub tabs, Code or Cursor), the answer carries each as a
// complete envelope (`candidates`), so a UI can offer them as buttons.

const MAX_COMMAND_LENGTH = 500;

type Candidate = NonNullable<PlannerAnswer['candidates']>[number];

/** `candidates`: when the question is a choice between things found (see choices.ts); left out when there are none. */
const clarify = (reason: string, confidence: number, candidates: Candidate[] = []): PlannerAnswer => ({
  envelope: { commands: [], needs_clarification: true, clarification_reason: reason } satisfies Envelope,
  confidence,
  ...(candidates.length ? { candidates } : {}),
});

const act = (commands: Command[]): PlannerAnswer => ({
  envelope: { commands, needs_clarification: false, clarification_reason: null } satisfies Envelope,
  confidence: 1,
});

/** The whole planning step, synchronous: exported for tests and for callers that need no Promise. */
export function planLocally(req: PlanRequest): PlannerAnswer {
  return plan(req, true);
}

/** `suggest`: when nothing is understood, offer phrasings that work (never while checking one). */
function plan(req: PlanRequest, suggest: boolean): PlannerAnswer {
  const typed = String(req.text ?? '').trim();
  if (typed.length > MAX_QUESTION_LENGTH) return clarify(NOT_UNDERSTOOD, 0);
  const clause = fixVerbSlips(stripFillers(stripReason(normalize(typed))), req.context);
  if (!clause) return clarify(NOT_UNDERSTOOD, 0);

  // "what tabs do I have open" is a question in form but asks for exactly list_tabs.
  const list = listRule(clause);
  if (list?.kind === 'ok') return finish([list], req);
  const ctx: ClauseContext = { snap: req.context, referent: referentFromTurns(req.turns ?? []), original: typed };
  if (isQuestion(clause, typed)) {
    // "how many tabs per site?", "what are my oldest tabs?": a listing answers these.
    const tabs = clause.length <= MAX_COMMAND_LENGTH ? searchTabsRule(clause, ctx) : null;
    return finish([tabs ?? questionResult(typed)], req);
  }

  // Commands are short; a page of text is not one, and parsing it would only cost time.
  if (clause.length > MAX_COMMAND_LENGTH) return clarify(NOT_UNDERSTOOD, 0);
  const results = parseSentence(clause, ctx);
  if (!results?.every((r) => r.kind === 'ok')) {
    const listed = listedItemRule(clause, req.turns ?? [], ctx);
    if (listed) return finish([listed], req);
    const more = followOn(clause, req, ctx);
    if (more) return finish(more, req);
  }
  if (!results) return suggest ? notUnderstood(typed, req) : clarify(NOT_UNDERSTOOD, 0);
  return finish(results, req);
}

const FOLLOW_ON = /^(?:and|also|plus|oh and)\s+(.+?)(?:\s+(?:too|as well|also))?$|^(.+?)\s+(?:too|as well)$/;

/** "and instagram too" after "close the netflix tab": the previous request's verb, for these things. */
function followOn(clause: string, req: PlanRequest, ctx: ClauseContext): ClauseResult[] | null {
  const m = FOLLOW_ON.exec(clause);
  const last = req.turns?.[req.turns.length - 1];
  if (!m || !last) return null;
  const verb = verbOf(stripFillers(normalize(last.text)));
  if (!verb) return null;
  const results = parseSentence(`${verb} ${m[1] ?? m[2]}`, ctx);
  return results?.every((r) => r.kind === 'ok') ? results : null;
}

const MAX_SUGGESTIONS = 2;

/**
 * Says what was recognised and offers up to two phrasings built from it that the matcher does
 * understand — each as a candidate the user can pick. Still a question with confidence 0: in
 * auto mode the LLM gets the sentence as it was said.
 */
function notUnderstood(typed: string, req: PlanRequest): PlannerAnswer {
  const understood = understoodIn(typed, req.context);
  const working: Candidate[] = [];
  for (const phrasing of phrasingsFor(understood)) {
    if (working.length >= MAX_SUGGESTIONS) break;
    const answer = plan({ ...req, text: phrasing }, false);
    const envelope = answer.envelope as Envelope;
    if (answer.confidence === 1 && !envelope.needs_clarification) working.push({ label: phrasing, envelope });
  }
  const said = understoodWords(understood);
  const head = said ? `I could not understand all of that offline; I recognised ${said}.` : 'I could not understand that offline.';
  const tail = working.length
    ? ` Did you mean ${joinList(working.map((w) => quote(w.label)), 'or')}?`
    : ' Say it as e.g. "switch to gmail", "close the reddit tabs", "xterm left half", "open slack", "swap chrome and slack" or "undo".';
  return clarify(head + tail, CONFIDENCE.notUnderstood, working);
}

function finish(results: readonly ClauseResult[], req: PlanRequest): PlannerAnswer {
  const asks = results.filter((r): r is Ask => r.kind === 'ask');
  if (asks.length) {
    const reasons = [...new Set(asks.map((a) => a.reason))];
    // Choices only when the one question is the sentence's only doubt: each then runs the whole sentence.
    const choices = asks.length === 1 ? expandChoices(results, asks[0]!) : [];
    const answer = clarify(reasons.join(' '), Math.min(...asks.map((a) => a.confidence)), candidatesOf(choices, req));
    return asks.every((a) => a.backendDown) ? { ...answer, backendDown: true } : answer;
  }
  const commands = mergePlacements(results.flatMap((r) => (r.kind === 'ok' ? r.commands : [])));
  // "reddit and youtube": two tabs cannot both be in front; say so rather than pick the last.
  const switches = commands.filter((c) => c.type === 'switch_tab');
  if (switches.length > 1) {
    const tabs = switches.map((c) => req.context.tabs.find((t) => t.index === c.tab_index)).filter((t) => t !== undefined);
    // Each tab is a choice: the sentence with that one switch and no other.
    const choices = tabs.map((t) => ({
      label: tabChoice(t),
      commands: commands.filter((c) => c.type !== 'switch_tab' || c.tab_index === t.index),
    }));
    return clarify(`Switch to which tab: ${joinList(tabs.map(tabLabel), 'or')}?`, CONFIDENCE.ambiguous, candidatesOf(choices, req));
  }
  const down = unavailable(commands, req.context);
  if (down?.kind === 'ask') return { ...clarify(down.reason, down.confidence), backendDown: true };
  // "xterm right" with three xterms: which one? Each choice is the sentence planned for that window alone.
  const which = whichWindowOf(commands, req.context, (context) => {
    const again = plan({ ...req, context }, false);
    const envelope = again.envelope as Envelope;
    return again.confidence === 1 && !envelope.needs_clarification ? envelope.commands : null;
  });
  if (which && 'reason' in which) return clarify(which.reason, CONFIDENCE.ambiguous, candidatesOf(which.choices, req));
  return act(which ? which.commands : commands);
}

/** Choices as complete envelopes; one that could not run as it is (two tabs in front, a backend down) is left out. */
function candidatesOf(choices: readonly Choice[], req: PlanRequest): Candidate[] {
  const out: Candidate[] = [];
  for (const choice of choices) {
    const commands = mergePlacements(choice.commands);
    if (commands.length === 0 || commands.filter((c) => c.type === 'switch_tab').length > 1) continue;
    if (unavailable(commands, req.context)) continue;
    // A choice naming an app with several windows and not which would itself be a question.
    if (whichWindowOf(commands, req.context, () => null)) continue;
    if (out.some((c) => c.label === choice.label)) continue;
    out.push({ label: choice.label, envelope: { commands, needs_clarification: false, clarification_reason: null } satisfies Envelope });
  }
  return out;
}

/**
 * "move terminal to the left monitor and maximise it": the move only said where the bounds of
 * the next command are computed, and those bounds are absolute — the move itself is moot.
 */
function mergePlacements(commands: Command[]): Command[] {
  const out: Command[] = [];
  commands.forEach((c, i) => {
    const next = commands[i + 1];
    const moveOnly = c.type === 'place_app' && !c.bounds && !c.layout;
    // The same window: the same app, and the same window id (or none) — "both xterms" are two.
    const sameApp = next?.type === 'place_app' && c.type === 'place_app' && next.app_name.toLowerCase() === c.app_name.toLowerCase() && next.window_id === c.window_id;
    if (c.type === 'place_app' && !c.bounds && sameApp && next.bounds) return;
    // "move chromium to the right screen and make it the left third": the third of that screen.
    if (moveOnly && sameApp && next.layout && !next.monitor && c.monitor) {
      commands[i + 1] = { ...next, monitor: c.monitor };
      return;
    }
    out.push(c);
  });
  return out;
}

export function createLocalPlanner(): Planner {
  return {
    kind: 'local',
    describe: () => 'offline matcher',
    plan: async (req) => {
      try {
        return planLocally(req);
      } catch {
        // A matcher bug must not take the request down: "not understood" lets auto mode ask the LLM.
        return clarify(NOT_UNDERSTOOD, 0);
      }
    },
  };
}
