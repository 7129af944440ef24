import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandResponse, IpcResult, RendererApi } from '../../../protocol/ipc';
import { emptyReport } from '../../../protocol/report';
import { useCommandStore } from './command-store';
import { useHistoryStore } from './history-store';
import { useInputStore } from './input-store';

// The command store against a fake of the preload bridge (window.api): Electron's IPC does not
// exist in a unit test. Each fake method records its request and answers what the test says.

type Answer = IpcResult<CommandResponse>;
const ok = (value: CommandResponse): Answer => ({ ok: true, value });
const doneWith = (message: string): CommandResponse => ({
  kind: 'done',
  id: 'r',
  planner: 'local',
  report: emptyReport('done', { results: [{ index: 0, type: 'switch_tab', ok: true, message }] }),
});

function fakeBridge() {
  const calls: Array<[string, unknown]> = [];
  const answers: Record<string, (req: unknown) => Promise<unknown>> = {};
  const api = new Proxy({} as Record<string, unknown>, {
    get: (_t, method: string) => (req: unknown) => {
      calls.push([method, req]);
      const answer = answers[method];
      return answer ? answer(req) : Promise.resolve({ ok: true, value: {} });
    },
  });
  return { api: api as unknown as RendererApi, calls, answers };
}

let bridge: ReturnType<typeof fakeBridge>;

beforeEach(() => {
  bridge = fakeBridge();
  vi.stubGlobal('window', { api: bridge.api });
  useCommandStore.setState({ phase: { kind: 'idle' } });
  useHistoryStore.setState({ entries: [] });
  useInputStore.setState({ text: '' });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('command store (fake bridge)', () => {
  it('words → a done report: the phase shows it, history records it, and the field that held the words is emptied', async () => {
    bridge.answers.commandSubmit = async () => ok(doneWith('Switched to tab 3 “Reddit”.'));
    useInputStore.setState({ text: 'switch to reddit' });
    await useCommandStore.getState().run({ kind: 'text', text: 'switch to reddit' });
    expect(bridge.calls.find(([m]) => m === 'commandSubmit')?.[1]).toEqual({ text: 'switch to reddit' });
    const phase = useCommandStore.getState().phase;
    expect(phase.kind).toBe('done');
    expect(useHistoryStore.getState().entries[0]?.outcome).toEqual({ mark: 'ok', message: 'Switched to tab 3 “Reddit”.' });
    expect(useInputStore.getState().text).toBe('');
  });

  it('the field keeps text the person typed meanwhile', async () => {
    bridge.answers.commandSubmit = async () => ok(doneWith('Done.'));
    const running = useCommandStore.getState().run({ kind: 'text', text: 'list apps' });
    useInputStore.setState({ text: 'close red' });
    await running;
    expect(useInputStore.getState().text).toBe('close red');
  });

  it('an answer to a request the person has moved on from is dropped', async () => {
    let answerFirst!: (a: Answer) => void;
    bridge.answers.commandSubmit = (req) =>
      (req as { text: string }).text === 'first' ? new Promise<Answer>((r) => (answerFirst = r)) : Promise.resolve(ok(doneWith('second done')));
    const first = useCommandStore.getState().run({ kind: 'text', text: 'first' });
    await useCommandStore.getState().run({ kind: 'text', text: 'second' });
    answerFirst(ok(doneWith('first done')));
    await first;
    const phase = useCommandStore.getState().phase;
    expect(phase.kind === 'done' && phase.report.results[0]?.message).toBe('second done');
  });

  it('an error with the cancelled code ends as cancelled, not as an error', async () => {
    bridge.answers.commandSubmit = async () => ok({ kind: 'error', id: 'r', message: 'any words', code: 'cancelled' });
    await useCommandStore.getState().run({ kind: 'text', text: 'close all tabs' });
    expect(useCommandStore.getState().phase.kind).toBe('cancelled');
  });

  it('a bridge failure is an error phase with its words', async () => {
    bridge.answers.commandSubmit = async () => ({ ok: false, error: 'The service stopped.', code: 'service_gone' });
    await useCommandStore.getState().run({ kind: 'text', text: 'list apps' });
    expect(useCommandStore.getState().phase).toMatchObject({ kind: 'error', message: 'The service stopped.' });
  });

  it('a clarification is answered with the chosen candidate for the same request id', async () => {
    bridge.answers.commandSubmit = async () => ok({ kind: 'clarification', id: 'q7', question: 'Which tab?', candidates: [{ label: 'a' }, { label: 'b' }] });
    bridge.answers.commandChoose = async () => ok(doneWith('Switched.'));
    await useCommandStore.getState().run({ kind: 'text', text: 'switch to github' });
    expect(useCommandStore.getState().phase.kind).toBe('clarification');
    await useCommandStore.getState().choose(1);
    expect(bridge.calls.find(([m]) => m === 'commandChoose')?.[1]).toEqual({ id: 'q7', candidate: 1 });
    expect(useCommandStore.getState().phase.kind).toBe('done');
  });

  it('a confirmation is not cleared by reset (first Esc); declining sends accept: false', async () => {
    bridge.answers.commandSubmit = async () => ok({ kind: 'confirm', id: 'c1', items: [], plan: [] });
    bridge.answers.commandConfirm = async () => ok({ kind: 'done', id: 'c1', planner: 'local', report: emptyReport('cancelled') });
    await useCommandStore.getState().run({ kind: 'text', text: 'close all tabs' });
    useCommandStore.getState().reset();
    expect(useCommandStore.getState().phase.kind).toBe('confirm');
    await useCommandStore.getState().answerConfirm(false);
    expect(bridge.calls.find(([m]) => m === 'commandConfirm')?.[1]).toEqual({ id: 'c1', accept: false });
    expect(useCommandStore.getState().phase.kind).toBe('cancelled');
  });

  it('cancelling a request that cannot be stopped leaves a note and keeps it working', async () => {
    let answer!: (a: Answer) => void;
    bridge.answers.presetsApply = () => new Promise<Answer>((r) => (answer = r));
    const running = useCommandStore.getState().run({ kind: 'preset', name: 'code space' });
    await useCommandStore.getState().cancel();
    const phase = useCommandStore.getState().phase;
    expect(phase).toMatchObject({ kind: 'working', cancelling: false });
    expect(phase.kind === 'working' && phase.note).toMatch(/can’t be stopped/);
    expect(bridge.calls.some(([m]) => m === 'commandCancel')).toBe(false);
    answer(ok(doneWith('Applied.')));
    await running;
  });
});
