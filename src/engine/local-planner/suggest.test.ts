import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../protocol/commands';
import { planLocally } from './local-planner';
import { NOT_UNDERSTOOD } from './messages';
import { phrasingsFor, understoodIn } from './suggest';
import { laptop, twoMonitors } from './test-fixtures';

// A sentence the matcher does not understand: the answer says what it recognised and offers
// the closest phrasings it does understand, each a runnable candidate — never the bare
// "could not understand".

const answer = (text: string, snap = twoMonitors()) => {
  const a = planLocally({ text, context: snap, turns: [] });
  return { ...a, envelope: a.envelope as Envelope };
};

describe('what a sentence it did not understand was understood to hold', () => {
  it('recognises apps (by their exact names), open tabs by site, places and an action', () => {
    expect(understoodIn('could you minimise the terminal for me, it is distracting', laptop())).toEqual({ action: 'minimize', apps: ['Terminal'], tabs: [], places: [] });
    expect(understoodIn('make cursor take the left two thirds', laptop())).toMatchObject({ apps: ['Cursor'], places: ['left two thirds'] });
    expect(understoodIn('and reddit too', laptop())).toMatchObject({ action: null, apps: [], tabs: ['reddit'] });
    expect(understoodIn('flibber the wobble', laptop())).toEqual({ action: null, apps: [], tabs: [], places: [] });
  });

  it('builds phrasings from them, the action first', () => {
    expect(phrasingsFor({ action: 'minimize', apps: ['Terminal'], tabs: [], places: [] })).toEqual(['minimize terminal', 'open terminal']);
    expect(phrasingsFor({ action: 'move', apps: ['Slack'], tabs: [], places: ['right screen', 'left third'] })[0]).toBe('slack left third on the right screen');
    expect(phrasingsFor({ action: 'close', apps: [], tabs: ['netflix', 'instagram'], places: [] })[0]).toBe('close netflix and instagram');
  });
});

describe('the answer when the matcher does not understand', () => {
  it('names what it recognised and offers working phrasings as candidates', () => {
    const a = answer('slack should sit in the left two thirds');
    expect(a.envelope.needs_clarification).toBe(true);
    expect(a.envelope.clarification_reason).toBe(
      'I could not understand all of that offline; I recognised Slack (an app) and "left two thirds" (a place on the screen). Did you mean "slack left two thirds" or "open slack"?',
    );
    expect(a.candidates?.[0]).toEqual({
      label: 'slack left two thirds',
      envelope: { commands: [{ type: 'place_app', app_name: 'Slack', layout: 'first_two_thirds' }], needs_clarification: false, clarification_reason: null },
    });
    // Still not an answer: auto mode hands the sentence as said to the LLM.
    expect(a.confidence).toBe(0);
  });

  it('offers only phrasings the matcher itself understands', () => {
    const a = answer('slack, pretty please minimise it now');
    for (const c of a.candidates ?? []) expect(answer(c.label).envelope.commands).toEqual((c.envelope as Envelope).commands);
    expect(a.candidates?.map((c) => c.label)).toEqual(['minimize slack', 'open slack']);
  });

  it('with nothing recognised: says so and gives examples, not the old list of shapes', () => {
    const a = answer('flibber the wobble');
    expect(a.envelope.clarification_reason).toMatch(/^I could not understand that offline\. Say it as e\.g\. "switch to gmail"/);
    expect(a.envelope.clarification_reason).not.toBe(NOT_UNDERSTOOD);
    expect(a.candidates).toBeUndefined();
  });
});
