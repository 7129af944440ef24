import { describe, expect, it } from 'vitest';
import type { Command, Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { checkAnswer } from '../plan-text';
import { planLocally } from './local-planner';
import { matchTabsPlural } from './tab-matcher';
import { laptop, tab } from './test-fixtures';

// "close the svelte tabs": every tab the name matches as confidently as a single match would —
// on its site or named in its title — not only the ones on its site. When some only mention
// the name in their address, the planner asks which group rather than dropping or adding them
// silently. "the svelte tab" (singular) still means exactly one, so it asks which.

/**
 * Svelte: its site (6), a GitHub repo (2) and a Reddit thread (7) named after it.
 * Porto: two tabs name it (1, 4); an Airbnb search (3) has it only in its address.
 * Vitest: its site (9) and its GitHub repo (8).
 */
const desk = (): ContextSnapshot =>
  laptop({
    tabs: [
      tab(1, 'https://www.booking.com/city/pt/porto.html', 'Hotels in Porto | Booking.com'),
      tab(2, 'https://github.com/sveltejs/svelte', 'GitHub - sveltejs/svelte: web development for the rest of us'),
      tab(3, 'https://www.airbnb.com/s/Ribeira--Porto/homes', 'Ribeira apartments · Airbnb'),
      tab(4, 'https://en.wikipedia.org/wiki/Porto', 'Porto - Wikipedia'),
      tab(5, 'https://www.youtube.com/watch?v=q1', 'Rust in 100 Seconds - YouTube', { active: true }),
      tab(6, 'https://svelte.dev/docs/introduction', 'Introduction • Docs • Svelte'),
      tab(7, 'https://www.reddit.com/r/sveltejs/comments/k1/why_we_chose_svelte/', 'Why we chose Svelte over React : r/sveltejs'),
      tab(8, 'https://github.com/vitest-dev/vitest', 'GitHub - vitest-dev/vitest: Next generation testing framework'),
      tab(9, 'https://vitest.dev/guide/', 'Getting Started | Guide | Vitest'),
      tab(10, 'https://mail.google.com/mail/u/0/#inbox', 'Inbox (2) - me@example.com - Gmail'),
    ],
  });

const envelope = (commands: Command[]): Envelope => ({ commands, needs_clarification: false, clarification_reason: null });

function plan(text: string, snap = desk()) {
  const a = planLocally({ text, context: snap, turns: [] });
  const env = a.envelope as Envelope;
  expect(checkAnswer(env, snap).errors, text).toEqual([]);
  for (const c of a.candidates ?? []) expect(checkAnswer(c.envelope, snap).errors, `${text} → ${c.label}`).toEqual([]);
  return { env, confidence: a.confidence, candidates: a.candidates ?? [] };
}

describe('matchTabsPlural grades the tabs a name matches', () => {
  const tabs = desk().tabs;
  const graded = (phrase: string) => {
    const m = matchTabsPlural(phrase, tabs);
    return { tier: m.tier, strong: m.strong.map((t) => t.index), weak: m.weak.map((t) => t.index) };
  };

  it.each([
    // The site and every tab whose title names it.
    ['svelte', { tier: 'site', strong: [2, 6, 7], weak: [] }],
    ['vitest', { tier: 'site', strong: [8, 9], weak: [] }],
    ['youtube', { tier: 'site', strong: [5], weak: [] }],
    // No site called so: titles are strong, an address alone is weak.
    ['porto', { tier: 'words', strong: [1, 4], weak: [3] }],
    ['ribeira', { tier: 'words', strong: [3], weak: [] }],
    // A typed address means that site only.
    ['svelte.dev', { tier: 'site', strong: [6], weak: [] }],
    ['figma', { tier: 'none', strong: [], weak: [] }],
  ] as const)('%s', (phrase, expected) => expect(graded(phrase)).toEqual(expected));
});

describe('plural with a name: every tab named so by site or title', () => {
  it.each<[string, number[]]>([
    ['close the svelte tabs', [2, 6, 7]],
    ['close all svelte tabs', [2, 6, 7]],
    ['close all the svelte tabs', [2, 6, 7]],
    ['close all of my svelte tabs', [2, 6, 7]],
    ['get rid of the svelte tabs', [2, 6, 7]],
    ['shut all svelte tabs please', [2, 6, 7]],
    ['close every svelte tab', [2, 6, 7]],
    ['close the vitest tabs', [8, 9]],
    ['close both vitest tabs', [8, 9]],
    ['dismiss the youtube and vitest tabs', [5, 8, 9]],
    ['close the svelte and vitest tabs', [2, 6, 7, 8, 9]],
    ['close the ribeira tabs', [3]],
    // The same rule for the tabs kept.
    ['close everything except the svelte tabs', [1, 3, 4, 5, 8, 9, 10]],
  ])('%s', (text, indices) => {
    const { env } = plan(text);
    expect(env.needs_clarification, env.clarification_reason ?? '').toBe(false);
    expect(env.commands).toEqual([{ type: 'close_tab', tab_indices: indices }]);
  });

  it.each(['close the svelte tab', 'close my vitest tab', 'get rid of the svelte tab'])('singular: %s still asks which one', (text) => {
    const { env, confidence, candidates } = plan(text);
    expect(env.needs_clarification).toBe(true);
    expect(confidence).toBe(0.5);
    expect(env.clarification_reason).toMatch(/^Which tab: /);
    expect(candidates.length).toBeGreaterThanOrEqual(2);
    for (const c of candidates) expect(((c.envelope as Envelope).commands[0] as { tab_indices: number[] }).tab_indices).toHaveLength(1);
  });
});

describe('a plural whose tabs are named plainly and only in an address asks which group', () => {
  it.each([
    'close the porto tabs',
    'close all porto tabs',
    'close all the porto tabs',
    'kill every porto tab',
  ])('%s', (text) => {
    const { env, confidence, candidates } = plan(text);
    expect(env.needs_clarification).toBe(true);
    expect(confidence).toBe(0.5);
    expect(env.clarification_reason).toBe(
      '2 tabs are named "porto" (1, 4); 1 more mentions it only in the address: 3 "Ribeira apartments · Airbnb" (airbnb.com). Only the named ones, or all 3?',
    );
    expect(candidates).toEqual([
      { label: 'close tabs 1 and 4 (named "porto")', envelope: envelope([{ type: 'close_tab', tab_indices: [1, 4] }]) },
      { label: 'close tabs 1, 3 and 4 (all 3)', envelope: envelope([{ type: 'close_tab', tab_indices: [1, 3, 4] }]) },
    ]);
  });

  it('names each name of a list', () => {
    const { env, candidates } = plan('close the porto and vitest tabs');
    expect(env.clarification_reason).toMatch(/^4 tabs are named "porto" or "vitest" \(1, 4, 8, 9\); 1 more mentions one only in the address: 3 /);
    expect(candidates.map((c) => (c.envelope as Envelope).commands)).toEqual([[{ type: 'close_tab', tab_indices: [1, 4, 8, 9] }], [{ type: 'close_tab', tab_indices: [1, 3, 4, 8, 9] }]]);
  });

  it('"all except" offers which group to keep', () => {
    const { env, candidates } = plan('close everything except porto');
    expect(env.needs_clarification).toBe(true);
    expect(candidates).toEqual([
      { label: 'keep tabs 1 and 4 (named "porto")', envelope: envelope([{ type: 'close_tab', tab_indices: [2, 3, 5, 6, 7, 8, 9, 10] }]) },
      { label: 'keep tabs 1, 3 and 4 (all 3)', envelope: envelope([{ type: 'close_tab', tab_indices: [2, 5, 6, 7, 8, 9, 10] }]) },
    ]);
  });
});
