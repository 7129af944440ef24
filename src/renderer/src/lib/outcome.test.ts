import { describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../../protocol/ipc';
import { emptyReport, type CommandOutcome, type PlannedCommand } from '../../../protocol/report';
import { announcement, CANCELLED_TEXT, clarificationMark, NOTHING_TO_DO, reportOutcome, responseOutcome, shortQuestion } from './outcome';

const result = (ok: boolean, message: string, index = 0): CommandOutcome => ({ index, type: 'close_tab', ok, message });
const planned = (summary: string, index = 0): PlannedCommand => ({ index, type: 'close_tab', summary, destructive: true, targets: [summary] });
const done = (report = emptyReport('done')): CommandResponse => ({ kind: 'done', id: 'r1', report, planner: 'local' });

describe('shortQuestion', () => {
  it('shortens a "which …: choices?" question to its first part', () => {
    expect(shortQuestion('Which tab: 2 "GitHub - a" (github.com) or 4 "GitHub - b" (github.com)?')).toBe('Which tab?');
  });

  it('leaves any other question whole (null)', () => {
    expect(shortQuestion('Close all 12 tabs?')).toBeNull();
    expect(shortQuestion('Which tab do you mean?')).toBeNull();
  });
});

describe('clarificationMark', () => {
  it('is a question (?) when it asks or offers choices, a failure (✗) when it only states', () => {
    expect(clarificationMark('Which window?')).toBe('ask');
    expect(clarificationMark('Pick one', 2)).toBe('ask');
    expect(clarificationMark('No running app matches “foo”.')).toBe('fail');
  });
});

describe('reportOutcome', () => {
  it('a done report says its first result; one with none says there was nothing to do', () => {
    expect(reportOutcome(emptyReport('done', { results: [result(true, 'Closed tab 2.')] }))).toEqual({ mark: 'ok', message: 'Closed tab 2.' });
    expect(reportOutcome(emptyReport('done'))).toEqual({ mark: 'info', message: NOTHING_TO_DO });
  });

  it('a failed report says the first failed result, not the first result', () => {
    const r = emptyReport('failed', { results: [result(true, 'Closed tab 2.'), result(false, 'Tab 5 is gone.', 1)] });
    expect(reportOutcome(r)).toEqual({ mark: 'fail', message: 'Tab 5 is gone.' });
  });

  it('invalid and unavailable say their first error; cancelled says nothing changed', () => {
    expect(reportOutcome(emptyReport('invalid', { errors: [{ path: 'commands[0]', message: 'unknown app' }] }))).toEqual({ mark: 'fail', message: 'unknown app' });
    expect(reportOutcome(emptyReport('unavailable'))).toEqual({ mark: 'fail', message: 'Nothing was run.' });
    expect(reportOutcome(emptyReport('cancelled'))).toEqual({ mark: 'cancel', message: CANCELLED_TEXT });
  });

  it('a clarification report is marked by whether it asks', () => {
    expect(reportOutcome(emptyReport('clarification', { clarification: { reason: 'Which monitor?', draft_types: [] } }))).toEqual({ mark: 'ask', message: 'Which monitor?' });
  });
});

describe('responseOutcome', () => {
  it('an error with the cancelled code is a cancel, any other code a failure with its words', () => {
    expect(responseOutcome({ kind: 'error', id: 'r1', message: 'whatever the words', code: 'cancelled' })).toEqual({ mark: 'cancel', message: CANCELLED_TEXT });
    expect(responseOutcome({ kind: 'error', id: 'r1', message: 'Chrome is not running', code: 'chrome_unavailable' })).toEqual({ mark: 'fail', message: 'Chrome is not running' });
  });

  it('a confirmation waits, counting what would close', () => {
    const r: CommandResponse = { kind: 'confirm', id: 'r1', items: [planned('tab 2'), planned('tab 5')], plan: [] };
    expect(responseOutcome(r)).toEqual({ mark: 'wait', message: 'Waiting for your answer: 2 to close' });
  });

  it('a clarification with choices is a question even without a question mark', () => {
    expect(responseOutcome({ kind: 'clarification', id: 'r1', question: 'Pick one', candidates: [{ label: 'a' }, { label: 'b' }] })).toEqual({ mark: 'ask', message: 'Pick one' });
  });
});

describe('announcement', () => {
  it('says every result of a run, each as done or failed', () => {
    const r = emptyReport('failed', { results: [result(true, 'Closed tab 2.'), result(false, 'Tab 5 is gone.', 1)] });
    expect(announcement(done(r))).toBe('Done: Closed tab 2.. Failed: Tab 5 is gone.');
  });

  it('says that nothing changed, with the errors, for a batch that did not run', () => {
    const r = emptyReport('invalid', { errors: [{ path: 'a', message: 'unknown app “foo”' }, { path: 'b', message: 'no tab 9' }] });
    expect(announcement(done(r))).toBe('Nothing was changed. unknown app “foo”. no tab 9');
  });

  it('counts the choices of a clarification and lists what a confirmation closes', () => {
    expect(announcement({ kind: 'clarification', id: 'r1', question: 'Which tab?', candidates: [{ label: 'a' }, { label: 'b' }] })).toBe('Which tab? 2 choices.');
    expect(announcement({ kind: 'confirm', id: 'r1', items: [planned('tab 2'), planned('tab 5')], plan: [] })).toBe('Confirm: tab 2, tab 5');
  });

  it('an empty done run and a cancelled error are said plainly', () => {
    expect(announcement(done())).toBe('Done. Nothing to do.');
    expect(announcement({ kind: 'error', id: 'r1', message: 'x', code: 'cancelled' })).toBe(CANCELLED_TEXT);
    expect(announcement({ kind: 'error', id: 'r1', message: 'the service stopped', code: 'service_gone' })).toBe('Error: the service stopped');
  });
});
