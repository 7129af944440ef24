import { describe, expect, it } from 'vitest';
import type { AgentPlan } from '../protocol/agent';
import { MAX_NOTICES, initialRunView, reduceRunView, type RunViewEvent, type RunViewState } from './agent-run-view';

// The agent run's view as a pure function of events: no service, no loop, no browser.

const PLAN: AgentPlan = { steps: ['Open the shop', 'Sign in', 'Read the orders'], message: 'I will read your orders.' };

const fold = (events: RunViewEvent[], from: RunViewState = initialRunView('a1', 'read my orders')) => events.reduce(reduceRunView, from);

const started = (n: number, kind: 'plan' | 'correction' | 'wrap-up' = 'plan', step = PLAN.steps[n] ?? ''): RunViewEvent => ({
  type: 'step-start',
  turn: n + 1,
  kind,
  stepIndex: kind === 'plan' ? n : null,
  instruction: kind === 'correction' ? `User correction: ${step}` : step,
  step,
  attempt: 1,
});

const output = (over: Partial<Extract<RunViewEvent, { type: 'output' }>>): RunViewEvent => ({
  type: 'output',
  turn: 1,
  command: { action: 'click', id: 3 },
  ok: true,
  code: null,
  message: 'Clicked element 3.',
  output: 'Clicked element 3.',
  intoPassword: false,
  ...over,
});

describe('the agent run view (pure reducer)', () => {
  it('a plan becomes pending steps; a turn runs its step; the command and what came of it are said in words', () => {
    const s = fold([
      { type: 'plan', plan: PLAN, edited: false, repaired: false },
      { type: 'approved' },
      started(0),
      { type: 'command', turn: 1, command: { action: 'open_tab', url: 'https://shop.example.com/' } },
    ]);
    expect(s.view).toMatchObject({ status: 'running', message: PLAN.message });
    expect(s.view.steps[0]).toEqual({ index: 0, step: 'Open the shop', kind: 'plan', state: 'running', command: 'Opened https://shop.example.com/ in a new tab' });
    expect(s.view.steps.slice(1).map((x) => x.state)).toEqual(['pending', 'pending']);

    const read = fold(
      [
        output({ command: { action: 'open_tab', url: 'https://shop.example.com/' }, message: 'Opened tab 1: https://shop.example.com/' }),
        started(2),
        output({ turn: 2, command: { action: 'read_page' }, message: 'Read 21 characters of page text.', data: 'Order 1\n\nOrder   2' }),
      ],
      s,
    );
    expect(read.view.steps[0]).toMatchObject({ state: 'done', output: 'Opened tab 1: https://shop.example.com/' });
    // Page text the command read is part of its one-line output.
    expect(read.view.steps[2]).toMatchObject({ state: 'done', command: 'Read the page', output: 'Read 21 characters of page text. Order 1 Order 2' });
    expect(read.view.commands).toBe(2);
  });

  it('a failed command shows its own words (never "System Error:"), and the step is failed', () => {
    const s = fold([
      { type: 'plan', plan: PLAN, edited: false, repaired: false },
      started(1),
      output({ ok: false, code: 'element_not_found', message: 'Element ID 9 not found.', output: 'System Error: Element ID 9 not found.' }),
    ]);
    expect(s.view.steps[1]).toMatchObject({ state: 'failed', output: 'Element ID 9 not found.' });
  });

  it('what was typed into a password field is never shown, not even while the safety question waits', () => {
    const typing = fold([
      { type: 'plan', plan: PLAN, edited: false, repaired: false },
      started(1),
      { type: 'command', turn: 2, command: { action: 'type', id: 2, value: 'hunter2' } },
      { type: 'question', question: 'Type into the password field (element 2) on shop.example.com?' },
    ]);
    expect(typing.view.steps[1]!.command).toBe('Typing into element 2…');
    expect(typing.view.confirm).toEqual({ question: 'Type into the password field (element 2) on shop.example.com?' });
    const typed = fold(
      [{ type: 'question-answered' }, output({ command: { action: 'type', id: 2, value: 'hunter2' }, message: 'Typed 7 characters into password field 2.', intoPassword: true })],
      typing,
    );
    expect(typed.view.confirm).toBeUndefined();
    expect(typed.view.steps[1]!.command).toBe('Typed 7 hidden characters into the password field, element 2');
    expect(JSON.stringify(typed.view)).not.toContain('hunter2');
  });

  it("notices: the model's own bookkeeping is not shown; the person's are, once in a row, the newest few", () => {
    const s0 = initialRunView('a1', 'g');
    const modelOnly = reduceRunView(s0, { type: 'notice', code: 'fresh_snapshot', audience: 'model', text: 'A fresh snapshot of tab 1 follows; use the element numbers in it.' });
    expect(modelOnly).toBe(s0);
    const released: RunViewEvent = { type: 'notice', code: 'tab_released', audience: 'person', text: 'Tab limit (3) reached. Released tab: https://a.example/' };
    const once = fold([released, released]);
    expect(once.view.notices).toEqual(['Tab limit (3) reached. Released tab: https://a.example/']);
    const many = fold(Array.from({ length: MAX_NOTICES + 3 }, (_, i): RunViewEvent => ({ type: 'notice', code: 'no_change', audience: 'person', text: `n${i}` })));
    expect(many.view.notices).toHaveLength(MAX_NOTICES);
    expect(many.view.notices[0]).toBe('n3');
  });

  it('a correction waits as its own entry, runs when its turn starts, and outlives an edited plan', () => {
    const s = fold([
      { type: 'plan', plan: PLAN, edited: false, repaired: false },
      { type: 'approved' },
      { type: 'correction', text: 'use the other account' },
      { type: 'plan', plan: { ...PLAN, steps: ['Open the shop', 'Read the orders'] }, edited: true, repaired: false },
    ]);
    expect(s.view.steps.map((x) => [x.index, x.kind, x.step, x.state])).toEqual([
      [0, 'plan', 'Open the shop', 'pending'],
      [1, 'plan', 'Read the orders', 'pending'],
      [2, 'correction', 'use the other account', 'pending'],
    ]);
    const running = fold([started(0, 'correction', 'use the other account')], s);
    expect(running.view.steps[2]!.state).toBe('running');
    expect(running.view.steps).toHaveLength(3);
    // Turns after the last step have one "finish" entry of their own.
    const finishing = fold([started(0, 'wrap-up', 'All planned steps are carried out.'), started(0, 'wrap-up', 'All planned steps are carried out.')], running);
    expect(finishing.view.steps.filter((x) => x.kind === 'finish')).toEqual([{ index: 3, step: 'Finish and answer', kind: 'finish', state: 'running' }]);
  });

  it('the end: once; Stop leaves the step in progress pending, a failure marks it failed; the reason reads as a sentence', () => {
    const running = fold([{ type: 'plan', plan: PLAN, edited: false, repaired: false }, { type: 'approved' }, started(1), { type: 'question', question: 'Sure?' }]);
    const stopping = fold([{ type: 'stopping' }], running);
    expect(stopping.view).toMatchObject({ status: 'stopping' });
    expect(stopping.view.confirm).toBeUndefined();
    const stopped = fold([{ type: 'ended', status: 'stopped', reason: 'Stopped after 1 command. Tabs the agent opened stay open.', commands: 1 }], stopping);
    expect(stopped.view).toMatchObject({ status: 'stopped', commands: 1, reason: 'Stopped after 1 command. Tabs the agent opened stay open.' });
    expect(stopped.view.steps[1]!.state).toBe('pending');
    expect(stopped.current).toBeNull();
    // Nothing changes an ended run.
    expect(reduceRunView(stopped, { type: 'ended', status: 'failed', reason: 'later' })).toBe(stopped);
    expect(reduceRunView(stopped, started(2))).toBe(stopped);

    const failed = fold([{ type: 'ended', status: 'failed', reason: "the plan's steps ran, but the executor did not finish with done in 3 more turns" }], running);
    expect(failed.view.steps[1]!.state).toBe('failed');
    expect(failed.view.reason).toBe("The plan's steps ran, but the executor did not finish with done in 3 more turns.");
    const done = fold([{ type: 'done', answer: '2 orders' }, { type: 'ended', status: 'done', reason: null, answer: '2 orders', commands: 4 }], running);
    expect(done.view).toMatchObject({ status: 'done', answer: '2 orders', commands: 4 });
    expect(done.view.reason).toBeUndefined();
    expect(done.view.steps[1]!.state).toBe('done');
  });

  it('never changes the state it is given', () => {
    const s = fold([{ type: 'plan', plan: PLAN, edited: false, repaired: false }, started(0)]);
    const before = structuredClone(s);
    fold([output({}), { type: 'ended', status: 'done', reason: null }], s);
    expect(s).toEqual(before);
  });
});
