import { beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_MAX, useHistoryStore } from './history-store';

const text = (t: string) => ({ kind: 'text' as const, text: t });

beforeEach(() => useHistoryStore.setState({ entries: [] }));

describe('history store', () => {
  it('lists runs newest first', () => {
    const { record } = useHistoryStore.getState();
    record(1, text('close reddit'), { mark: 'ok', message: 'Closed tab 2.' });
    record(2, text('move xterm left'), { mark: 'fail', message: 'No window.' });
    expect(useHistoryStore.getState().entries.map((e) => e.runId)).toEqual([2, 1]);
  });

  it('a run recorded again (after a choice or a confirmation) replaces its entry and comes first', () => {
    const { record } = useHistoryStore.getState();
    record(1, text('close tabs'), { mark: 'wait', message: 'Waiting for your answer: 2 to close' });
    record(2, text('list apps'), { mark: 'ok', message: '3 apps.' });
    record(1, text('close tabs'), { mark: 'ok', message: 'Closed 2 tabs.' });
    const entries = useHistoryStore.getState().entries;
    expect(entries.map((e) => [e.runId, e.outcome.message])).toEqual([
      [1, 'Closed 2 tabs.'],
      [2, '3 apps.'],
    ]);
  });

  it(`keeps the last ${HISTORY_MAX}`, () => {
    const { record } = useHistoryStore.getState();
    for (let i = 1; i <= HISTORY_MAX + 3; i++) record(i, text(`c${i}`), { mark: 'ok', message: 'ok' });
    const entries = useHistoryStore.getState().entries;
    expect(entries).toHaveLength(HISTORY_MAX);
    expect(entries[0]!.runId).toBe(HISTORY_MAX + 3);
    expect(entries.at(-1)!.runId).toBe(4);
  });
});
