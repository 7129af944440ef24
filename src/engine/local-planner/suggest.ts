import type { ContextSnapshot } from '../../protocol/context';
import { matchApp } from './app-matcher';
import { joinList, quote } from './messages';
import { matchTabs } from './tab-matcher';
import { normalize, stripFillers, wordsOf } from './text';

// When no rule understood a sentence, the answer says what was recognised in it — apps, tabs,
// places on the screen, an action — and offers the closest phrasings that do work. A phrasing
// is offered only after the matcher itself has understood it (the caller checks each one), so
// the offer is never a sentence that would fail again.

/** An action people name, by its usual verb, with the words that say it. */
const ACTIONS: ReadonlyArray<[verb: string, words: RegExp]> = [
  ['minimize', /\b(?:minimi[sz]e|hide|shrink away)\b/],
  ['maximize', /\b(?:maximi[sz]e|maximze|fill the screen)\b/],
  ['restore', /\b(?:restore|unminimi[sz]e|bring back)\b/],
  ['fullscreen', /\bfull ?screen\b/],
  ['swap', /\b(?:swap|switch places|trade places|exchange)\b/],
  ['tile', /\b(?:tile|side by side|next to each other)\b/],
  ['close', /\b(?:close|quit|kill|shut|get rid of|exit)\b/],
  ['move', /\b(?:move|put|send|place|throw|push|snap|make|take|display|monitor|screen)\b/],
  ['switch', /\b(?:switch|go to|show|bring up|pull up|jump|focus)\b/],
  ['open', /\b(?:open|launch|start|run)\b/],
];

// Places on the screen: a layout region or a monitor.
const PLACE =
  /\b(?:(?:top|bottom)[ -](?:left|right|center|centre)(?: (?:quarter|sixth|corner))?|(?:left|right|top|bottom|first|center|centre|middle|last)(?: two)? (?:half|third|thirds|quarter|sixth)|(?:almost )?maximi[sz]ed?|centered|centred|(?:next|previous|prev|other|left|right|top|bottom|main|laptop|external|primary|second|first) (?:monitor|screen|display)|(?:monitor|screen|display) (?:\d|one|two|three)|(?:left|right|top|bottom) half)\b/g;

export interface Understood {
  /** The action the words name, if any (the first found). */
  action: string | null;
  /** Apps named, by their exact names. */
  apps: string[];
  /** Site or title words that name open tabs. */
  tabs: string[];
  /** Places on the screen, as said. */
  places: string[];
}

const MAX_NGRAM = 3;
const STOP = new Set(['the', 'a', 'an', 'my', 'to', 'on', 'in', 'of', 'and', 'it', 'for', 'me', 'with', 'too', 'also', 'now', 'then', 'please', 'i', 'is', 'that', 'this', 'tab', 'tabs', 'window', 'app']);

/** What the matcher recognises in words it could not understand as a whole. */
export function understoodIn(text: string, snap: ContextSnapshot): Understood {
  const said = stripFillers(normalize(text));
  const action = ACTIONS.find(([, re]) => re.test(said))?.[0] ?? null;
  const places = [...new Set([...said.matchAll(PLACE)].map((m) => m[0]))];
  const words = wordsOf(said);
  const apps: string[] = [];
  const tabs: string[] = [];
  const used = new Set<number>();
  // Longest phrases first, so "vs code" is one app and not "code".
  for (let n = MAX_NGRAM; n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      if ([...Array(n).keys()].some((k) => used.has(i + k))) continue;
      const phrase = words.slice(i, i + n).join(' ');
      if (n === 1 && (STOP.has(phrase) || phrase.length < 3)) continue;
      const app = matchApp(phrase, snap, 'any', { fuzzy: false });
      const hit = app.kind === 'one' && app.tier !== 'kind' ? app.name : app.kind === 'one' && n === 1 && words[i - 1] === 'the' ? app.name : null;
      if (hit) {
        if (!apps.includes(hit)) apps.push(hit);
        for (let k = 0; k < n; k++) used.add(i + k);
        continue;
      }
      if (n <= 2 && snap.tabs.length && matchTabs(phrase, snap.tabs, { fuzzy: false }).tier === 'site') {
        if (!tabs.includes(phrase)) tabs.push(phrase);
        for (let k = 0; k < n; k++) used.add(i + k);
      }
    }
  }
  return { action, apps, tabs, places };
}

const isMonitor = (place: string) => /monitor|screen|display/.test(place);

/** Actions worth naming back; "move", "switch" and "open" are said by the phrasings themselves. */
const NAMED_ACTIONS = new Set(['minimize', 'maximize', 'restore', 'fullscreen', 'swap', 'tile', 'close']);

/** Phrasings the matcher knows, built from what was recognised; the likeliest first. */
export function phrasingsFor(u: Understood): string[] {
  const out: string[] = [];
  const [a, b] = u.apps.map((n) => n.toLowerCase());
  const tabs = joinList(u.tabs, 'and');
  const add = (s: string | false | undefined) => s && !out.includes(s) && out.push(s);
  const byAction: Record<string, () => void> = {
    minimize: () => add(a && `minimize ${a}`),
    maximize: () => u.apps.forEach((n) => add(`maximize ${n.toLowerCase()}`)),
    restore: () => add(a && `restore ${a}`),
    fullscreen: () => add(a && `put ${a} in full screen mode`),
    swap: () => add(a && b && `swap ${a} and ${b}`),
    tile: () => add(u.apps.length >= 2 && `tile ${joinList(u.apps.map((n) => n.toLowerCase()), 'and')} side by side`),
    close: () => {
      add(u.tabs.length > 0 && `close ${tabs}`);
      add(a && `quit ${a}`);
    },
    move: () => {
      const monitor = u.places.find(isMonitor);
      const region = u.places.find((p) => !isMonitor(p));
      // "move chromium to the right screen and make it the left third": both in one phrasing first.
      add(a && monitor && region && `${a} ${region} on the ${monitor}`);
      for (const p of u.places) add(a && (isMonitor(p) ? `move ${a} to the ${p}` : `${a} ${p}`));
    },
    switch: () => {
      add(u.tabs.length === 1 && `switch to ${tabs}`);
      add(a && `switch to ${a}`);
    },
    open: () => {
      add(a && `open ${a}`);
      add(u.tabs.length === 1 && `open ${tabs}`);
    },
  };
  if (u.action) byAction[u.action]!();
  // Then what the recognised things allow without the action.
  if (a && u.places.length) byAction.move!();
  if (u.tabs.length) byAction.switch!();
  // Closing is offered only when closing was said: a suggestion never closes what was not asked to close.
  if (a) add(`open ${a}`);
  return out;
}

/** "XTerm (an app), "left two thirds" (a place on the screen)": what the sentence was understood to hold. */
export function understoodWords(u: Understood): string | null {
  const parts = [
    ...(u.action && NAMED_ACTIONS.has(u.action) ? [`${quote(u.action)} (what to do)`] : []),
    ...u.apps.map((n) => `${n} (an app)`),
    ...u.tabs.map((t) => `${quote(t)} (an open tab)`),
    ...u.places.map((p) => `${quote(p)} (a place on the screen)`),
  ];
  return parts.length ? joinList(parts, 'and') : null;
}
