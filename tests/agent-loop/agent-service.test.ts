import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import type { AgentModels } from '../../src/engine/agent-ports';
import { guardedHandlers, type IpcHandlers } from '../../src/main/ipc-manager';
import { AGENT_NEEDS_LLM, AgentService } from '../../src/app/agent-service';
import { describeCommand } from '../../src/engine/agent';
import type { AgentWiring } from '../../src/compose/agent-wiring';
import type { AgentRunStatus, AgentRunView } from '../../src/protocol/ipc';
import { waitFor } from '../support/wait-for';
import { scriptedBrowser, scriptedModels, tool, type ScriptedBrowser } from './scripted';

// The app's agent service with the real agent loop, an in-memory browser and scripted models:
// the rules the UI test does not reach (one run at a time, a held plan replaced, Stop while
// planning, a refused edit, the safety question, what each push carries). The real browser
// and models in the app are tests/ui/ui-agent.test.ts.

const SEARCH = 'https://shop.example.com/search';
const PLAN = { steps: ['Open the shop search page', 'Search for cats'], message: 'I will search the shop for cats.' };

function rig(models: AgentModels, opts: { connect?: () => Promise<ScriptedBrowser>; missingSecrets?: string[]; noLlm?: boolean } = {}) {
  const browser = scriptedBrowser({
    [SEARCH]: { title: 'Search', body: '<input id="1" type="search"> <input id="2" type="password">', elements: { 1: { tag: 'input', submitsForm: true }, 2: { tag: 'input', isPassword: true } } },
  });
  const views: AgentRunView[] = [];
  const wiring: AgentWiring = {
    models,
    plannerModel: 'planner',
    executorModel: 'executor',
    tools: [],
    options: {},
    missingSecrets: opts.missingSecrets ?? [],
    connectBrowser: opts.connect ?? (async () => browser),
  };
  const service = new AgentService({ factory: async () => (opts.noLlm ? null : wiring), emit: (v) => views.push(v) });
  const h = service.handlers();
  const last = () => views.at(-1)!;
  const reached = (status: AgentRunStatus) => waitFor(`status ${status}`, async () => views.some((v) => v.status === status) && last());
  return { service, h, browser, views, last, reached };
}

describe('the agent service (real loop, scripted browser and models)', () => {
  it('plans, holds the plan, runs it once approved; every push is a whole, newer view', async () => {
    const models = scriptedModels([PLAN], [tool({ action: 'open_tab', url: SEARCH }), { command: { action: 'type', id: 1, value: 'cats', submit: true } }, tool({ action: 'done', answer: 'Cat toy, cat bed.' })]);
    const { h, browser, views, reached } = rig(models);
    const started = await h['agent:start']({ goal: 'find cats' });
    expect(started).toEqual({ runId: expect.any(String), plan: PLAN.steps, message: PLAN.message });
    const runId = (started as { runId: string }).runId;
    expect((await h['agent:status']({ runId })).status).toBe('awaiting_approval');
    expect(browser.opened).toEqual([]);
    expect(models.nextRequests).toHaveLength(0);

    expect(await h['agent:approve']({ runId, approve: true })).toEqual({ started: true });
    const done = await reached('done');
    expect(done).toMatchObject({ answer: 'Cat toy, cat bed.', commands: 3, notices: [] });
    expect(done.steps).toEqual([
      { index: 0, step: 'Open the shop search page', kind: 'plan', state: 'done', command: `Opened ${SEARCH} in a new tab`, output: `Opened tab 1: ${SEARCH}` },
      { index: 1, step: 'Search for cats', kind: 'plan', state: 'done', command: 'Typed “cats” into element 1, then pressed Enter', output: 'type done.' },
      { index: 2, step: 'Finish and answer', kind: 'finish', state: 'done', command: 'Finished with the answer' },
    ]);
    expect(views.map((v) => v.version)).toEqual(views.map((_, i) => i + 1));
    expect([...new Set(views.map((v) => v.status))]).toEqual(['planning', 'awaiting_approval', 'running', 'done']);
    expect(browser.disposed).toBe(true);
    // A second approval of the same plan starts nothing.
    expect(await h['agent:approve']({ runId, approve: true })).toEqual({ started: false, reason: 'This task has already ended.' });
  });

  it('currentTab: the run starts on the tab the person is looking at; a question about it is answered at once, with nothing to approve', async () => {
    const models = scriptedModels([{ needs_steps: false, steps: [], message: 'A search box and a password field.' }], []);
    const { h, browser, reached } = rig(models);
    browser.current = browser.userTab(SEARCH);
    const started = await h['agent:start']({ goal: 'what is on this page?', currentTab: true });
    expect(started).toEqual({ runId: expect.any(String), plan: [], message: 'A search box and a password field.' });
    const done = await reached('done');
    expect(done).toMatchObject({ answer: 'A search box and a password field.', commands: 0, steps: [] });
    expect(models.planRequests[0]!.page!.text).toContain(`<page_data tab="1" current="yes" url="${SEARCH}" title="Search">`);
    expect(models.nextRequests).toEqual([]);
    expect(browser.opened).toEqual([]);
  });

  it('one run at a time: a held plan is replaced by a new task; a running one refuses it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const models = scriptedModels(
      [PLAN, PLAN],
      [
        async () => {
          await gate;
          return tool({ action: 'open_tab', url: SEARCH });
        },
        tool({ action: 'done', answer: 'ok' }),
      ],
    );
    const { h, views, reached } = rig(models);
    const first = (await h['agent:start']({ goal: 'first' })) as { runId: string };
    const second = (await h['agent:start']({ goal: 'second' })) as { runId: string };
    expect(second.runId).not.toBe(first.runId);
    // The held plan ended without running anything.
    expect(views.filter((v) => v.runId === first.runId).at(-1)).toMatchObject({ status: 'stopped', reason: 'Stopped — nothing was run.' });
    await expect(h['agent:status']({ runId: first.runId })).rejects.toThrow('That agent task is gone; start it again.');

    await h['agent:approve']({ runId: second.runId, approve: true });
    await waitFor('the first step', async () => views.at(-1)!.steps[0]!.state === 'running');
    expect(await h['agent:start']({ goal: 'third' })).toEqual({ error: 'An agent task is already running. Stop it first.' });
    release();
    expect((await reached('done')).runId).toBe(second.runId);
  });

  it('Stop while planning ends the run (agent:start answers why); no browser work', async () => {
    const models: AgentModels = { plan: () => new Promise(() => {}), next: async () => ({ raw: '' }) };
    const { h, browser, views } = rig(models);
    const start = h['agent:start']({ goal: 'slow planner' });
    await waitFor('the planning push', async () => views.length > 0);
    expect(views[0]!.status).toBe('planning');
    expect(await h['agent:stop']({ runId: views[0]!.runId })).toEqual({ stopped: true });
    expect(await start).toEqual({ error: 'Stopped — nothing was run.' });
    expect(views.at(-1)!.status).toBe('stopped');
    expect(await h['agent:stop']({ runId: views[0]!.runId })).toEqual({ stopped: false });
    expect(browser.opened).toEqual([]);
  });

  it('no LLM, or no Chrome: a clear error and no run', async () => {
    const noLlm = rig(scriptedModels([], []), { noLlm: true });
    expect(await noLlm.h['agent:start']({ goal: 'x' })).toEqual({ error: AGENT_NEEDS_LLM });
    const noChrome = rig(scriptedModels([PLAN], []), {
      connect: async () => {
        throw new Error('Chrome is not reachable at 127.0.0.1:9222');
      },
    });
    expect(await noChrome.h['agent:start']({ goal: 'x' })).toEqual({ error: 'Chrome is not reachable at 127.0.0.1:9222.' });
    expect(noChrome.last().status).toBe('failed');
  });

  it('an edited plan runs as edited; corrections go first; the safety question waits for agent:confirm', async () => {
    const models = scriptedModels(
      [PLAN],
      [
        tool({ action: 'open_tab', url: SEARCH }),
        tool({ action: 'type', id: 2, value: 'hunter2' }),
        tool({ action: 'read_page' }),
        tool({ action: 'done', answer: 'signed in' }),
      ],
    );
    const { h, browser, views, last, reached } = rig(models, { missingSecrets: ['PW (SHOP_PASSWORD)'] });
    const { runId } = (await h['agent:start']({ goal: 'sign in' })) as { runId: string };
    expect(last().notices).toEqual(['The secret PW (SHOP_PASSWORD) is not set in the environment, so the agent cannot use it.']);
    await h['agent:approve']({ runId, approve: true, steps: ['Open the shop search page', 'Type the password'] });
    const asking = await waitFor('the question', async () => last().confirm);
    expect(asking).toEqual({ question: 'Type into the password field (element 2) on shop.example.com?' });
    expect(last().steps.map((s) => [s.step, s.state])).toEqual([
      ['Open the shop search page', 'done'],
      ['Type the password', 'running'],
    ]);
    // A correction now is the next instruction after this one.
    expect(await h['agent:correct']({ runId, text: 'then read the page' })).toEqual({ accepted: true });
    expect(last().steps.at(-1)).toMatchObject({ step: 'then read the page', kind: 'correction', state: 'pending' });
    expect(await h['agent:confirm']({ runId, accept: true })).toEqual({ answered: true });
    expect(await h['agent:confirm']({ runId, accept: true })).toEqual({ answered: false });
    const done = await reached('done');
    expect(done.confirm).toBeUndefined();
    // What went into the password field is never shown.
    expect(done.steps[1]!.command).toBe('Typed 7 hidden characters into the password field, element 2');
    expect(JSON.stringify(views)).not.toContain('hunter2');
    expect(done.steps.map((s) => [s.kind, s.step, s.state])).toEqual([
      ['plan', 'Open the shop search page', 'done'],
      ['plan', 'Type the password', 'done'],
      ['correction', 'then read the page', 'done'],
      ['finish', 'Finish and answer', 'done'],
    ]);
    expect(models.nextRequests.map((r) => r.step)).toEqual(['Open the shop search page', 'Type the password', 'User correction: then read the page', expect.stringContaining('All planned steps')]);
    expect(browser.performed.map((p) => p.cmd.action)).toEqual(['type', 'read_page']);
    expect(views.some((v) => v.status === 'awaiting_approval')).toBe(true);
  });

  it('Cancel at the plan: cancelled, nothing run; corrections are refused when nothing runs', async () => {
    const models = scriptedModels([PLAN], []);
    const { h, browser, reached } = rig(models);
    const { runId } = (await h['agent:start']({ goal: 'x' })) as { runId: string };
    expect(await h['agent:correct']({ runId, text: 'hurry' })).toEqual({ accepted: false });
    expect(await h['agent:approve']({ runId, approve: false })).toEqual({ started: false });
    expect(await reached('cancelled')).toMatchObject({ reason: 'Cancelled — nothing was run.' });
    expect(browser.opened).toEqual([]);
    expect(models.nextRequests).toHaveLength(0);
  });

  it('main validates every agent payload before the service sees it', async () => {
    const { service } = rig(scriptedModels([], []));
    const ours = { id: 1 } as unknown as WebContents;
    const invoke = guardedHandlers(service.handlers() as unknown as IpcHandlers, (s) => s === ours);
    expect(await invoke['agent:start']({ sender: ours }, { goal: '   ' })).toMatchObject({ ok: false, error: 'goal: must not be empty', code: 'invalid_input' });
    expect(await invoke['agent:approve']({ sender: ours }, { runId: 'a1', approve: true, steps: [] })).toMatchObject({ ok: false, error: 'steps: the plan needs at least one step', code: 'invalid_input' });
    expect(await invoke['agent:approve']({ sender: ours }, { runId: 'a1', approve: true, steps: ['ok', ' '] })).toMatchObject({ ok: false, error: 'steps[1]: a step must not be empty', code: 'invalid_input' });
    expect(await invoke['agent:confirm']({ sender: ours }, { runId: 'a1', accept: 'yes' })).toMatchObject({ ok: false, error: expect.stringContaining('accept') });
    expect(await invoke['agent:status']({ sender: ours }, { runId: 'nope' })).toEqual({ ok: false, error: 'That agent task is gone; start it again.', code: 'expired' });
  });

  it('the command in words', () => {
    expect(describeCommand({ action: 'click', id: 3, count: 2 })).toBe('Double-clicked element 3');
    expect(describeCommand({ action: 'select', id: 4, option: { index: 0 } })).toBe('Chose option 1 in element 4');
    expect(describeCommand({ action: 'scroll', direction: 'bottom' })).toBe('Scrolled to the bottom');
    expect(describeCommand({ action: 'navigate', to: 'back' })).toBe('Went back');
    expect(describeCommand({ action: 'wait_for', condition: { text: 'Results' } })).toBe('Waited for “Results”');
  });
});
