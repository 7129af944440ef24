import type { AgentStepView } from '../../../protocol/ipc';
import { curlyQuotes, isLoopback, tidyMessage } from '../live/site';

// An agent step as a person needs to read it, from the words the run's view carries: what was
// done, once (the command and a result that only restates it are one line), without the
// agent's own bookkeeping ("element 2" is its number for a field, not the person's), without
// the text it read off a page (the answer says what it found), with short addresses and
// typographic quotes. Presentation only: the run's view is not changed.

/** Element numbers are how the agent points at a page: "into the password field, element 2," → "into the password field". */
export function withoutElementNumbers(s: string): string {
  return s
    .replace(/,\s*element \d+,?/gi, (m) => (m.trimEnd().endsWith(',') ? ',' : ''))
    .replace(/\s*\(element \d+\)/gi, '')
    .replace(/\s+into element \d+/gi, '')
    .replace(/\b(field|box|button|link) \d+\b/gi, '$1')
    .replace(/\belement \d+\b/gi, 'an item on the page')
    .replace(/\s+,/g, ',')
    .replace(/,(\S)/g, ', $1');
}

/** "http://127.0.0.1:40967/login.html" → "login.html"; "https://www.example.com/a/" → "example.com/a". */
export function shortUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return url;
  const path = decodeURIComponent(u.pathname).replace(/\/$/, '');
  const short = isLoopback(u.hostname) ? path.replace(/^\//, '') || 'a page on this computer' : `${u.hostname.replace(/^www\./, '')}${path}`;
  return short.length > 60 ? `${short.slice(0, 59)}…` : short;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'“”)]+/g;

/** One line of the agent's words as shown: no element numbers, short addresses, curly quotes. */
export function presentAgentText(s: string): string {
  return tidyMessage(withoutElementNumbers(s).replace(URL_IN_TEXT, (u) => shortUrl(u)));
}

/** Text the agent read off a page, reported as such: the answer says what it found. */
const PAGE_TEXT = /^read \d+ characters\b/i;

const firstWord = (s: string) => /^\W*(\w+)/.exec(s)?.[1]?.toLowerCase() ?? '';

/** The step's command and result lines; the result only when it says something the command does not. */
export function presentStep(s: Pick<AgentStepView, 'command' | 'output' | 'state'>): { command: string | null; output: string | null } {
  const command = s.command ? presentAgentText(s.command) : null;
  let output = s.output ? presentAgentText(s.output) : null;
  if (output && s.state !== 'failed') {
    if (PAGE_TEXT.test(output)) output = null;
    // "Opened the tool “Shop”" and "Opened tab 1 (tool “Shop”): search.html" say one thing.
    else if (command && firstWord(output) === firstWord(command)) output = null;
  }
  return { command, output: output && output !== command ? output : null };
}

/** A plan step or the goal: the planner's words, with typographic quotes. */
export const presentPlanText = (s: string): string => curlyQuotes(s);
