import { describe, expect, it } from 'vitest';
import type { Command, Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import type { Turn } from '../../protocol/planning';
import { parseInput } from '../../protocol/validation';
import { resolveBatch } from '../resolve';
import { planLocally } from './local-planner';
import { contentWords, namesSomething } from './object-words';
import { laptop, turn, twoMonitors } from './test-fixtures';
import { normalize, stripFillers } from './text';

// A verb's object must hold a word that can name something. Articles, possessives, pronouns,
// hesitations and kind nouns ("the tab") alone are an unfinished sentence: the planner asks
// (confidence 0) instead of turning "the" into the.com or hunting for a tab titled "my".

function answer(text: string, snap: ContextSnapshot = laptop(), turns: Turn[] = []) {
  const a = planLocally({ text, context: snap, turns });
  const env = a.envelope as Envelope;
  expect(parseInput(env).ok, `valid envelope for "${text}"`).toBe(true);
  return { env, confidence: a.confidence };
}

const acts = (text: string, snap: ContextSnapshot = laptop(), turns: Turn[] = []): Command[] => {
  const { env, confidence } = answer(text, snap, turns);
  if (env.needs_clarification) throw new Error(`"${text}" asked: ${env.clarification_reason}`);
  expect(confidence).toBe(1);
  expect(resolveBatch(env.commands, snap).ok).toBe(true);
  return env.commands;
};

describe('namesSomething', () => {
  it.each([
    ['github', ['github']],
    ['the reddit tab', ['reddit']],
    ['my dotfiles repo', ['dotfiles', 'repo']],
    ['tab 3', ['3']],
    ['the first', ['first']],
    ['next.js', ['next', 'js']],
    ['um.edu', ['edu']],
    ['a new york times article', ['new', 'york', 'times', 'article']],
  ])('%j names something: %j', (phrase, words) => {
    expect(namesSomething(phrase)).toBe(true);
    expect(contentWords(phrase)).toEqual(words);
  });

  it.each(['', 'the', 'a', 'an', 'my', 'our', 'some', 'this', 'those', 'it', 'them', 'uh the', 'um my', 'the the', 'to the', 'the tab', 'that app', 'my window', 'some page', 'please', 'something'])(
    '%j names nothing',
    (phrase) => expect(namesSomething(phrase)).toBe(false),
  );
});

describe('hesitations are dropped wherever they fall', () => {
  it.each([
    ['Uh, open the', 'open the'],
    ['open uh github', 'open github'],
    ['switch to umm, reddit', 'switch to reddit'],
    ['close the erm youtube tab', 'close the youtube tab'],
    ['hmm uhh quit slack', 'quit slack'],
    // Inside an address or a word it is not a hesitation.
    ['open um.edu', 'open um.edu'],
    ['open humble bundle', 'open humble bundle'],
  ])('%j → %j', (input, out) => expect(stripFillers(normalize(input))).toBe(out));
});

type AskRow = [text: string, question: RegExp];

/** Each sentence stopped before its object: a question at confidence 0, no commands. */
const incomplete = (rows: AskRow[], snap: () => ContextSnapshot = laptop) =>
  it.each(rows)('%s', (text, question) => {
    const { env, confidence } = answer(text, snap());
    expect(env.needs_clarification, `"${text}" should ask, got ${JSON.stringify(env.commands)}`).toBe(true);
    expect(env.commands).toEqual([]);
    expect(confidence).toBe(0);
    expect(env.clarification_reason).toMatch(question);
  });

describe('an object made only of filler or function words is asked about, not guessed', () => {
  describe('open / new tab', () => {
    incomplete([
      ['open the', /^Open what\? Say a site or an app, e\.g\. "open github"\.$/],
      ['Um, open a', /^Open what\? Say a site or an app/],
      ['could you open my please', /^Open what\? Say a site or an app/],
      ['hmm open an uh', /^Open what\?/],
      ['open up the', /^Open up what\?/],
      ['open some', /^Open what\?/],
      ['open those', /^Open what\?/],
      ['open the app', /^Open what\?/],
      ['launch the', /^Launch what\? Say an app/],
      ['start my', /^Start what\? Say an app/],
      ['visit the', /^Visit what\? Say a site/],
      ['load our', /^Load what\? Say a site/],
      ['open the in a new tab', /^Open what\? Say a site for the new tab/],
      ['new tab for the', /^Open what\? Say a site for the new tab/],
      ['open a new tab with my', /^Open what\? Say a site for the new tab/],
    ]);
  });

  describe('switch / go to / show', () => {
    incomplete([
      ['switch to the', /^Switch to what\? Say a tab, an app or a preset, e\.g\. "switch to gmail"\.$/],
      ['uh switch over to my', /^Switch over to what\?/],
      ['go to the', /^Go to what\? Say a site, a tab or an app/],
      ['take me to some', /^Take me to what\? Say a site, a tab or an app/],
      ['show me the', /^Show me what\?/],
      ['switch to the tab', /^Switch to what\?/],
      ['bring up that page', /^Bring up what\?/],
      ['activate the', /^Activate what\?/],
    ]);
  });

  describe('close / quit', () => {
    incomplete([
      ['close the', /^Close what\? Say a tab or an app, e\.g\. "close the reddit tab"\.$/],
      ['close my', /^Close what\?/],
      ['um close the uh', /^Close what\?/],
      ['get rid of the', /^Get rid of what\?/],
      ['close the app', /^Close what\?/],
      ['quit the', /^Quit what\? Say an app, e\.g\. "quit slack"\.$/],
      ['kill my', /^Kill what\? Say an app/],
      ['force quit the', /^Force quit what\?/],
    ]);
  });

  describe('moving and sizing windows', () => {
    incomplete(
      [
        ['move the to the left', /^Move which app\? Name it, e\.g\. "move slack to the left"\.$/],
        ['put my on the right monitor', /^Move which app\?/],
        ['send the to the other screen', /^Move which app\?/],
        ['snap the to the left half', /^Move which app\?/],
        ['maximise the', /^Maximise which app\? Name it, e\.g\. "maximise slack"\.$/],
        ['make the full screen', /^Make full screen which app\?/],
        ['centre my', /^Centre which app\?/],
      ],
      twoMonitors,
    );
  });

  it('a pronoun with nothing to stand for is asked about, not matched', () => {
    for (const text of ['quit it', 'close that', 'open it', 'switch to it', 'move it to the left', 'maximise the window']) {
      const { env, confidence } = answer(text, twoMonitors());
      expect(env.needs_clarification, text).toBe(true);
      expect(confidence, text).toBeLessThan(0.5);
      expect(env.clarification_reason, text).toMatch(/^Which app do you mean by "(?:it|that|the window)"\?/);
    }
  });
});

describe('the same verbs still act when the object names something', () => {
  const slack = [turn('launch slack', [{ type: 'focus_app', app_name: 'Slack' }])];

  it.each<[string, Command[]]>([
    ['uh open spotify', [{ type: 'focus_app', app_name: 'Spotify' }]],
    ['open um.edu', [{ type: 'open_url', url: 'um.edu' }]],
    ['open the uh chatgpt', [{ type: 'open_url', url: 'chatgpt' }]],
    ['open a new tab', [{ type: 'open_url', url: 'about:blank' }]],
    ['erm switch to the youtube tab', [{ type: 'switch_tab', tab_index: 4 }]],
    ['go to the third tab', [{ type: 'switch_tab', tab_index: 3 }]],
    ['close the uh youtube tab', [{ type: 'close_tab', tab_indices: [4] }]],
    ['quit my spotify', [{ type: 'close_app', app_name: 'Spotify' }]],
  ])('%s', (text, commands) => expect(acts(text)).toEqual(commands));

  it.each<[string, Command[]]>([
    ['quit it', [{ type: 'close_app', app_name: 'Slack' }]],
    ['open it', [{ type: 'focus_app', app_name: 'Slack' }]],
    ['move it to the right monitor', [{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]],
    ['move the window to the right monitor', [{ type: 'place_app', app_name: 'Slack', monitor: 'right' }]],
  ])('%s, after "launch slack", is Slack', (text, commands) => expect(acts(text, twoMonitors(), slack)).toEqual(commands));
});
