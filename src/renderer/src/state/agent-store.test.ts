import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentRunView } from '../../../protocol/agent-view';
import type { RendererApi } from '../../../protocol/ipc';
import { useAgentStore } from './agent-store';

// The agent store against a fake of the preload bridge (window.api): Electron's IPC does not
// exist in a unit test. Fake timers keep the store's status polling from running for real.

const view = (over: Partial<AgentRunView> = {}): AgentRunView => ({
  runId: 'run-1',
  version: 1,
  goal: 'find cats',
  status: 'awaiting_approval',
  steps: [{ index: 0, step: 'Search for cats', kind: 'plan', state: 'pending' }],
  notices: [],
  commands: 0,
  ...over,
});

let calls: Array<[string, unknown]>;

beforeEach(() => {
  vi.useFakeTimers();
  calls = [];
  const api = new Proxy({}, { get: (_t, method: string) => async (req: unknown) => (calls.push([method, req]), { ok: true, value: { runId: 'run-2' } }) });
  vi.stubGlobal('window', { api: api as RendererApi });
  useAgentStore.setState({ mode: false, onTab: false, view: null, starting: null, error: null, busy: false, note: null });
});

afterEach(() => {
  // An ended view stops the store's polling before the next test.
  const v = useAgentStore.getState().view;
  if (v) useAgentStore.getState().receive({ ...v, version: v.version + 1000, status: 'stopped' });
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('agent store (fake bridge)', () => {
  it('shows a newer view of the run and drops one not newer than what it shows', () => {
    const { receive } = useAgentStore.getState();
    receive(view({ runId: 'run-a', version: 2, message: 'two' }));
    receive(view({ runId: 'run-a', version: 1, message: 'one' }));
    receive(view({ runId: 'run-a', version: 2, message: 'two again' }));
    expect(useAgentStore.getState().view?.message).toBe('two');
    receive(view({ runId: 'run-a', version: 3, message: 'three' }));
    expect(useAgentStore.getState().view?.message).toBe('three');
  });

  it('a live run is not dismissed; an ended one is, and later pushes of it are ignored', () => {
    const { receive } = useAgentStore.getState();
    receive(view({ runId: 'run-b', status: 'running' }));
    useAgentStore.getState().dismiss();
    expect(useAgentStore.getState().view?.runId).toBe('run-b');
    receive(view({ runId: 'run-b', version: 2, status: 'done', answer: 'Cats found.' }));
    useAgentStore.getState().dismiss();
    expect(useAgentStore.getState().view).toBeNull();
    receive(view({ runId: 'run-b', version: 3, status: 'done' }));
    expect(useAgentStore.getState().view).toBeNull();
  });

  it('starts on the tab the person is looking at only when "This tab" is on', async () => {
    await useAgentStore.getState().start('summarise this page', 'summarise this page');
    expect(calls.find(([m]) => m === 'agentStart')![1]).toEqual({ goal: 'summarise this page' });
    useAgentStore.getState().receive(view({ runId: 'run-2', status: 'stopped' }));
    calls = [];
    useAgentStore.getState().setOnTab(true);
    await useAgentStore.getState().start('summarise this page', 'summarise this page');
    expect(calls.find(([m]) => m === 'agentStart')![1]).toEqual({ goal: 'summarise this page', currentTab: true });
  });

  it('a new task while one runs is refused with a note, and nothing is sent', async () => {
    useAgentStore.getState().receive(view({ runId: 'run-c', status: 'running' }));
    await useAgentStore.getState().start('find dogs', 'agent: find dogs');
    expect(useAgentStore.getState().note).toMatch(/Stop it before starting another/);
    expect(calls.some(([m]) => m === 'agentStart')).toBe(false);
  });

  it('approve sends the edited steps for the plan shown, and only while it awaits approval', async () => {
    useAgentStore.getState().receive(view({ runId: 'run-d' }));
    await useAgentStore.getState().approve(['Search for kittens']);
    expect(calls.filter(([m]) => m === 'agentApprove').map(([, r]) => r)).toEqual([{ runId: 'run-d', approve: true, steps: ['Search for kittens'] }]);
    useAgentStore.getState().receive(view({ runId: 'run-d', version: 2, status: 'running' }));
    await useAgentStore.getState().approve();
    expect(calls.filter(([m]) => m === 'agentApprove')).toHaveLength(1);
  });
});
