// Turning what someone typed into the small, regular language the clause rules match.
// Everything is lower-cased and punctuation-light; "," and ";" survive because they separate
// clauses and tab numbers, "." "/" ":" "-" survive inside words because addresses need them.

const CONTRACTIONS: Array<[RegExp, string]> = [
  [/\bwhat's\b/g, 'what is'],
  [/\bwhere's\b/g, 'where is'],
  [/\bwho's\b/g, 'who is'],
  [/\bhow's\b/g, 'how is'],
  [/\bthat's\b/g, 'that is'],
  [/\bwhich's\b/g, 'which is'],
  [/\bit's\b/g, 'it is'],
  [/\bi'd\b/g, 'i would'],
  [/\bi'm\b/g, 'i am'],
  [/\blet's\b/g, 'let us'],
  [/\bdon't\b/g, 'do not'],
  [/\bdoesn't\b/g, 'does not'],
  [/\bcan't\b/g, 'cannot'],
  [/\bisn't\b/g, 'is not'],
  [/\baren't\b/g, 'are not'],
];

// Politeness and hedges at the start of a request. Longest first so "could you please" goes
// in one step; applied repeatedly because people stack them ("hey, can you please …").
const LEADING_FILLERS = [
  'would you mind', 'would you be able to', 'could you', 'can you', 'would you', 'will you', 'can u', 'could u',
  'i would like you to', 'i would like to', 'i want you to', 'i need you to', 'i want to', 'i wanna', 'i need to',
  'i would like', 'go ahead and', 'let us', 'lets', 'please', 'pls', 'plz', 'kindly', 'hey there', 'hey', 'hi', 'hello',
  'ok so', 'okay so', 'ok', 'okay', 'alright', 'yo', 'so', 'um', 'uh', 'just', 'quickly', 'deskpilot', 'now', 'and now',
  'also', 'and',
  // A correction's opener ("actually the right half", "oops put it back"): the request follows.
  'actually', 'oops', 'whoops', 'oh wait', 'no wait', 'oh',
];

const TRAILING_FILLERS = [
  'please', 'pls', 'plz', 'thanks', 'thank you', 'thx', 'for me', 'right now', 'now', 'quickly', 'real quick', 'asap',
  'if you can', 'if possible', 'for me please',
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const LEADING = new RegExp(`^(?:${LEADING_FILLERS.map(escape).join('|')})\\b[\\s,]*`);
const TRAILING = new RegExp(`[\\s,]*\\b(?:${TRAILING_FILLERS.map(escape).join('|')})$`);

/** Lower-cased, contractions expanded, sentence punctuation dropped, spaces squeezed. */
export function normalize(text: string): string {
  let t = String(text ?? '').normalize('NFKC').toLowerCase();
  // Curly quotes and accents as escapes: the built CLI is kept ASCII (src/cli/load-cli.ts).
  t = t.replace(/[\u2018\u2019`\u00b4]/g, "'").replace(/[\u201c\u201d\u00ab\u00bb"]/g, ' ');
  for (const [re, to] of CONTRACTIONS) t = t.replace(re, to);
  t = t.replace(/'s\b/g, '').replace(/'/g, '');
  // "!" "?" and brackets carry no meaning for the matcher; "&" and "+" read as "and".
  t = t.replace(/[!?()[\]{}<>*]+/g, ' ').replace(/\s[&+]\s/g, ' and ');
  // A full stop ends a sentence unless it sits inside a word ("github.com", "1.5").
  t = t.replace(/\.+(?=\s|$|,|;)/g, ' ');
  t = t.replace(/\s*([,;])\s*/g, '$1 ');
  return t.replace(/\s+/g, ' ').replace(/^[\s,;]+|[\s,;]+$/g, '').trim();
}

// Hesitations are never part of a name, wherever they fall ("open uh github"). Whole words
// only: "um.edu" keeps its "um".
const HESITATION = /(?<=^|[\s,;])(?:u+h+|u+m+|uhm+|erm+|hm+)(?=$|[\s,;])[,;]?/g;

/** Removes polite fillers at both ends, and "please" and hesitations anywhere. */
export function stripFillers(t: string): string {
  let s = t.replace(/\bplease\b,?/g, ' ').replace(HESITATION, ' ').replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 8; i++) {
    const next = s.replace(LEADING, '').replace(TRAILING, '').replace(/^[\s,;]+|[\s,;]+$/g, '').trim();
    if (next === s) break;
    s = next;
  }
  return s;
}

// Why the person wants it, said after the request: "close netflix, i need to focus", "hide
// slack, it keeps pinging me", "…, they're distracting me" (apostrophes are gone by now),
// "… because it is distracting". Never part of what to act on.
const REASON_AFTER_COMMA =
  /,\s*(?:(?:i|we) (?:need|want|have|am|would|gotta|must|cannot|can not|do not|keep|always|never)|(?:theyre|im|were) \w+ing|(?:it|they|that|this|he|she) (?:is|are|was|keeps?|has|makes?|gets?)|(?:it|they) \w+s me|because|since|cause|cuz|so (?:that|i|we)|as (?:i|we)|too (?:loud|noisy|distracting|many))\b.*$/;
const REASON = /\s+(?:because|so that|so i can|so we can)\s.*$/;

/** The request without a trailing reason. */
export function stripReason(t: string): string {
  return t.replace(REASON_AFTER_COMMA, '').replace(REASON, '').trim();
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20,
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  once: 1, twice: 2, thrice: 3,
};

/** "3", "3rd", "#3", "three", "third" → 3; anything else → null. */
export function parseNumber(word: string): number | null {
  const w = word.trim().replace(/^#/, '');
  const m = /^(\d{1,4})(?:st|nd|rd|th)?$/.exec(w);
  if (m) return Number(m[1]);
  return Object.hasOwn(NUMBER_WORDS, w) ? NUMBER_WORDS[w]! : null;
}

// Longest words first, so that "seventeen" is not read as "seven".
export const NUMBER_PATTERN = `(?:#?\\d{1,4}(?:st|nd|rd|th)?|${Object.keys(NUMBER_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;

/** Leading articles and possessives that never distinguish one target from another. */
export function stripArticles(phrase: string): string {
  let s = phrase.trim();
  for (let i = 0; i < 3; i++) {
    const next = s.replace(/^(?:the|my|a|an|our|that|those|these|your)\s+/, '').trim();
    if (next === s) break;
    s = next;
  }
  return s;
}

/** Words of a phrase for whole-word comparisons: letters and digits only. */
const NON_ASCII = /[\u0080-\uffff]/;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
/** The same split for ASCII text: \p{L} and \p{N} are these there, and the Unicode classes cost a cold call ~10 ms to compile and run. */
const NOT_ASCII_WORD = /[^a-z0-9]+/;

export const wordsOf = (s: string): string[] => {
  const t = s.toLowerCase();
  return t.split(NON_ASCII.test(t) ? NOT_WORD : NOT_ASCII_WORD).filter(Boolean);
};

/** Letters and digits only: "VS Code", "vs-code" and "vscode" compare equal. */
export const squash = (s: string): string => wordsOf(s).join('');

export const escapeRegExp = escape;

/** Whether a phrase still holds a clause separator: then it is probably two things, for the sentence splitter. */
export const hasSeparator = (s: string): boolean => /\s(?:and|then|also|plus)\s|[,;]/.test(s);
