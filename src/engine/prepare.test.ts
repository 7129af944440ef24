import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../protocol/context';
import { fixtureTab } from './test-snapshot';
import { itemsToConfirm } from '../protocol/prepared-batch';
import { checkBatch, droppedReport, prepareInput, previewReport } from './prepare';

const tab = fixtureTab;

const snap: ContextSnapshot = {
  taken_at: '2026-11-26T00:00:00.000Z',
  monitors: [{ id: '1', name: 'LEFT', roles: ['left', 'main', 'right'], bounds: [0, 0, 1920, 1080], work_area: [0, 0, 1920, 1080], primary: true, scale: 1 }],
  running_apps: [{ name: 'XTerm', pid: 10, windows: [{ id: '0x1', title: 'xterm', bounds: [0, 0, 800, 600], monitor: 'LEFT', focused: true, minimized: false }] }],
  installed_apps: [{ name: 'XTerm' }],
  tabs: [tab(1, 'reddit.com'), tab(2, 'github.com'), tab(3, 'youtube.com')],
  presets: [],
  sources: { chrome: { ok: true, message: 'Chromium' }, windows: { ok: true, message: 'X11' }, presets: { ok: true, message: '' } },
};

const stamp = () => ({ id: 'B1', deviceId: 'desk-a', now: Date.parse('2026-11-26T00:00:01.000Z') });
let snapshotsTaken = 0;
const snapshot = async () => {
  snapshotsTaken++;
  return snap;
};

describe('prepare → a batch that can be held, sent and run', () => {
  it('resolves indices to stable ids, describes each command, and lists what needs a yes', async () => {
    const p = await prepareInput([{ type: 'close_tab', tab_indices: [3, 1] }, { type: 'place_app', app_name: 'xterm', monitor: 'left' }], snapshot, stamp);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    const b = p.batch;
    expect(b.commands[0]).toMatchObject({ type: 'close_tab', tabs: [{ target_id: 'T3' }, { target_id: 'T1' }] });
    expect(b.commands[1]).toMatchObject({ type: 'place_app', app: 'XTerm', windowId: '0x1' });
    expect(b.plan.map((c) => c.summary)).toEqual(['close tab 3 "Tab 3" (youtube.com), tab 1 "Tab 1" (reddit.com)', 'move XTerm to the left monitor']);
    expect(b.confirm).toEqual([{ index: 0, kind: 'close_tab', summary: b.plan[0]!.summary, targets: ['tab 3 "Tab 3" (youtube.com)', 'tab 1 "Tab 1" (reddit.com)'] }]);
    expect(itemsToConfirm(b, { close_tab: true })).toHaveLength(1);
    expect(itemsToConfirm(b, { close_tab: false, close_app: true })).toHaveLength(0);
    expect([b.id, b.device_id, b.snapshot_taken_at, b.prepared_at]).toEqual(['B1', 'desk-a', snap.taken_at, '2026-11-26T00:00:01.000Z']);
  });

  it('survives JSON (it travels over a socket or a queue row) and is checked again where it arrives', async () => {
    const p = await prepareInput({ type: 'switch_tab', tab_index: 2 }, snapshot, stamp);
    if (!p.ok) throw new Error('expected a batch');
    const travelled = JSON.parse(JSON.stringify(p.batch));
    expect(checkBatch(travelled, 'desk-a')).toEqual({ ok: true, batch: p.batch });
  });

  it('refuses a batch for another desk, and a tampered one, naming the field', async () => {
    const p = await prepareInput({ type: 'switch_tab', tab_index: 2 }, snapshot, stamp);
    if (!p.ok) throw new Error('expected a batch');
    const other = checkBatch(p.batch, 'desk-b');
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.report.errors[0]).toMatchObject({ path: 'batch.device_id' });
    const tampered = checkBatch({ ...p.batch, commands: [{ type: 'switch_tab', command: { type: 'switch_tab', tab_index: 2 }, tab: { index: 'two' } }] }, 'desk-a');
    expect(tampered.ok).toBe(false);
    if (!tampered.ok) {
      expect(tampered.report.status).toBe('invalid');
      expect(tampered.report.errors.some((e) => e.path.startsWith('batch.commands[0].tab'))).toBe(true);
    }
    expect(checkBatch('not a batch', 'desk-a').ok).toBe(false);
  });

  it('answers bad input, questions and empty batches without a snapshot', async () => {
    snapshotsTaken = 0;
    const bad = await prepareInput({ type: 'switch_tab' }, snapshot, stamp);
    const question = await prepareInput({ commands: [], needs_clarification: true, clarification_reason: 'which one?' }, snapshot, stamp);
    const empty = await prepareInput([], snapshot, stamp);
    expect([bad, question, empty].map((p) => (p.ok ? 'batch' : p.report.status))).toEqual(['invalid', 'clarification', 'done']);
    expect(snapshotsTaken).toBe(0);
  });

  it('refuses a batch that does not resolve, and says the backend is missing when it is', async () => {
    const gone = await prepareInput({ type: 'switch_tab', tab_index: 9 }, snapshot, stamp);
    expect(gone.ok ? null : gone.report.status).toBe('invalid');
    const down = await prepareInput({ type: 'switch_tab', tab_index: 1 }, async () => ({ ...snap, sources: { ...snap.sources, chrome: { ok: false, message: 'Chrome is not running' } } }), stamp);
    expect(down.ok ? null : down.report.errors[0]?.message).toBe('Chrome is not running');
  });

  it('previews and drops without running: the plan is in the report, no results', async () => {
    const p = await prepareInput({ type: 'close_tab', tab_indices: [1] }, snapshot, stamp);
    if (!p.ok) throw new Error('expected a batch');
    expect(previewReport(p.batch)).toMatchObject({ status: 'dry_run', plan: p.batch.plan, results: [] });
    expect(droppedReport(p.batch)).toMatchObject({ status: 'cancelled', plan: p.batch.plan, results: [], batch_id: null });
  });
});
