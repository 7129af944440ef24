import { ask, CONFIDENCE, type ClauseResult } from './result';
import { wordsOf } from './text';

// Whether the object of a verb names anything at all. "uh open the", "switch to my", "close
// the", "move the to the left": the sentence stopped before its object, and the words left
// are articles, possessives, pronouns, hesitations or the kind of thing ("tab", "app") — none
// of which can be looked up. Matching such words against sites, tabs or apps only finds
// accidents (the.com, a tab whose title says "the"), so the sentence is incomplete and the
// planner asks what was meant, with confidence 0 (not understood) so that auto mode may ask
// the LLM instead. A pronoun with something to stand for ("open it" after "launch slack") is
// resolved by the rules before this check, so only a pronoun with no referent reaches it.

/** Words that never name a site, tab, app or preset on their own. */
const FUNCTION_WORDS = new Set([
  // articles, determiners, quantifiers that pick nothing out
  'the', 'a', 'an', 'this', 'that', 'these', 'those', 'some', 'any', 'another', 'such', 'same',
  // possessives and personal pronouns
  'my', 'mine', 'our', 'ours', 'your', 'yours', 'his', 'her', 'hers', 'their', 'theirs', 'its',
  'it', 'itself', 'them', 'they', 'he', 'she', 'him', 'we', 'us', 'you', 'me', 'i',
  // indefinite and question pronouns
  'something', 'anything', 'somewhere', 'anywhere', 'someone', 'anyone', 'whatever', 'what', 'which', 'where',
  // hesitations and politeness
  'uh', 'uhh', 'um', 'umm', 'uhm', 'erm', 'hmm', 'please', 'pls', 'plz', 'kindly', 'just', 'ok', 'okay', 'well', 'like',
  // prepositions, conjunctions and particles left dangling
  'to', 'of', 'in', 'on', 'onto', 'into', 'at', 'for', 'with', 'from', 'by', 'up', 'over', 'and', 'or', 'then', 'now',
  'again', 'there', 'here',
]);

/** Nouns for the kind of thing ("the tab", "the app"): they say what sort of target, not which one. */
const KIND_NOUNS = new Set([
  'tab', 'tabs', 'page', 'pages', 'site', 'website', 'webpage', 'app', 'apps', 'application', 'program', 'window', 'windows',
]);

/** The words of a phrase that can name something. */
export const contentWords = (phrase: string): string[] => wordsOf(phrase).filter((w) => !FUNCTION_WORDS.has(w) && !KIND_NOUNS.has(w));

/** Whether the phrase has at least one word that can name a target. */
export const namesSomething = (phrase: string): boolean => contentWords(phrase).length > 0;

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * "Open what? Say a site or an app, e.g. "open github"." — the question for a verb whose object
 * named nothing. `kinds`: what the verb takes ("a site or an app"); `example`: a sample object.
 */
export function askWhat(verb: string, kinds: string, example: string): ClauseResult {
  return ask(`${capitalised(verb)} what? Say ${kinds}, e.g. "${verb} ${example}".`, CONFIDENCE.notUnderstood);
}

/** "Maximise which app? …" — for the commands that move a window, whose object must be an app. */
export function askWhichAppToPlace(action: 'move' | 'maximise' | 'centre' | 'restore' | 'minimise' | 'make full screen'): ClauseResult {
  const example = action === 'move' ? 'move slack to the left' : `${action} slack`;
  return ask(`${capitalised(action)} which app? Name it, e.g. "${example}".`, CONFIDENCE.notUnderstood);
}
