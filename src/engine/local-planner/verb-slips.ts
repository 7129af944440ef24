import type { ContextSnapshot } from '../../protocol/context';
import { editDistance } from '../closest-names';
import { squash } from './text';

// A slip in the verb ("swtich to gmail", "clsoe the netflix tab", "maximze xterm") is read as
// the verb it is one slip away from: two neighbouring letters swapped, one letter left out or
// one too many. Not one letter for another: that turns words into other words ("take" is not
// "make"). Only when that verb is the only one so close, the word has at least four letters
// and is not itself the name of something on the desk (an app, a preset, a site of an open
// tab); and only where a verb stands: the start of the request and of each clause.

const VERBS = [
  'switch', 'close', 'open', 'launch', 'start', 'move', 'put', 'place', 'send', 'maximize', 'maximise', 'minimize', 'minimise',
  'restore', 'focus', 'show', 'hide', 'quit', 'kill', 'center', 'centre', 'tile', 'swap', 'undo', 'list', 'bring', 'snap',
  'resize', 'shrink', 'grow', 'reload', 'refresh', 'pin', 'unpin', 'mute', 'unmute', 'group', 'ungroup', 'save', 'search',
  'find', 'go', 'make', 'exit', 'enter', 'reopen', 'activate', 'apply',
];
const KNOWN = new Set(VERBS);
const CLAUSE_START = /(^|,\s*|\b(?:and|then|also|plus)\s+)([a-z]{4,})\b/g;

/** Whether b is a with two neighbouring letters swapped. */
function isSwap(a: string, b: string): boolean {
  const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
  return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
}

export function fixVerbSlips(text: string, snap: ContextSnapshot): string {
  const names = new Set([
    ...snap.running_apps.map((a) => squash(a.name)),
    ...snap.installed_apps.map((a) => squash(a.name)),
    ...snap.presets.map(squash),
    ...snap.tabs.map((t) => squash(t.domain.split('.')[0] ?? '')),
  ]);
  return text.replace(CLAUSE_START, (whole, lead: string, word: string) => {
    if (KNOWN.has(word) || names.has(word)) return whole;
    const close = VERBS.filter((v) => Math.abs(v.length - word.length) <= 1 && editDistance(word, v) === 1 && (v.length !== word.length || isSwap(word, v)));
    return close.length === 1 ? `${lead}${close[0]}` : whole;
  });
}
