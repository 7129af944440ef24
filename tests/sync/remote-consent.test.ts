// Closing tabs from another device waits for a yes on the target. A real X desktop and Chromium,
// DeskPilot's engine behind a LocalDesk, the gate with a PendingConsents (the port the service
// answers from `deskpilot devices approve|deny`); tabs are checked with raw CDP.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { logConsents, PendingConsents } from '../../src/app/sync/remote-consent';
import { runRemoteBatch, type RemoteBatchRequest } from '../../src/app/sync/remote-gate';
import type { PreparedBatch } from '../../src/protocol/prepared-batch';
import type { ConsentRequest } from '../../src/protocol/remote-consent';
import type { ExecReport } from '../../src/protocol/report';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';
import { startGateRig, type GateRig } from './remote-gate-rig';

describeDesktop('closing tabs from another device needs a yes on the target (real desktop, Chromium, engine)', () => {
  let r: GateRig;
  let consents: PendingConsents;
  let asked: ConsentRequest[];
  const log: string[] = [];

  beforeAll(async () => {
    r = await startGateRig();
  });

  afterAll(async () => {
    await r?.stop();
  });

  beforeEach(() => {
    consents = new PendingConsents();
    logConsents(consents, (l) => log.push(l));
    asked = [];
    consents.onArrive((q) => asked.push(q));
  });

  /** Opens a tab of its own and returns its target id and the batch closing it, prepared as a sender would (against the same desk). */
  async function tabToClose(title: string): Promise<{ targetId: string; batch: PreparedBatch }> {
    const targetId = await r.raw.open(r.desk.pages.url('page', { title }));
    const tab = await waitFor(`the snapshot to list ${title}`, async () => (await r.local.snapshot()).tabs.find((t) => t.target_id === targetId));
    const prepared = await r.local.prepare({ type: 'close_tab', tab_indices: [tab.index] });
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.report.errors));
    return { targetId, batch: prepared.batch };
  }

  const isOpen = async (targetId: string) => (await r.raw.pages()).some((p) => p.targetId === targetId);

  function send(batch: PreparedBatch, o: { actWithoutAsking?: boolean; deadline?: number } = {}): Promise<ExecReport> {
    const req: RemoteBatchRequest = {
      rowId: `row-${batch.id}`,
      sender: { id: 'laptop-id', name: 'your laptop', actWithoutAsking: o.actWithoutAsking ?? false },
      batch,
      askedBy: 'ana at the laptop',
      deadline: o.deadline ?? Date.now() + 60_000,
    };
    return runRemoteBatch(req, { desk: r.local, consent: consents, deviceName: 'desk at home' });
  }

  it('waits for approval on the target; approve → the tab closes', async () => {
    const { targetId, batch } = await tabToClose('Approve me');
    const report = send(batch);
    const q = await waitFor('the question on the target', () => consents.list()[0]);
    expect(q).toMatchObject({ id: `row-${batch.id}`, from: { name: 'your laptop' }, asked_by: 'ana at the laptop', on: 'desk at home' });
    expect(q.items).toEqual([expect.objectContaining({ summary: expect.stringMatching(/close tab .*Approve me/) })]);
    expect(log.some((l) => l.includes(`deskpilot devices approve row-${batch.id}`))).toBe(true);
    expect(await isOpen(targetId)).toBe(true);
    expect(consents.answer(q.id, true)).toBe(true);
    expect((await report).status).toBe('done');
    await r.raw.waitFor(async () => !(await isOpen(targetId)), 'the approved tab to close');
    expect(consents.list()).toEqual([]);
  });

  it('deny → nothing closes, reported as declined on the target', async () => {
    const { targetId, batch } = await tabToClose('Deny me');
    const report = send(batch);
    const q = await waitFor('the question on the target', () => consents.list()[0]);
    consents.answer(q.id, false);
    const got = await report;
    expect(got.status).toBe('cancelled');
    expect(got.errors).toEqual([{ path: 'confirm', message: 'declined on "desk at home" — nothing was run' }]);
    expect(got.results.map((o) => o.code)).toEqual(['declined']);
    expect(await isOpen(targetId)).toBe(true);
  });

  it('no answer by the deadline → "not confirmed on <target> — nothing was run", the tab stays; a late answer changes nothing', async () => {
    const { targetId, batch } = await tabToClose('Nobody home');
    const got = await send(batch, { deadline: Date.now() + 1_500 });
    expect(got.status).toBe('cancelled');
    expect(got.errors).toEqual([{ path: 'confirm', message: 'not confirmed on "desk at home" — nothing was run' }]);
    expect(got.results).toEqual([expect.objectContaining({ ok: false, code: 'not_confirmed' })]);
    expect(asked).toHaveLength(1);
    expect(consents.answer(asked[0]!.id, true)).toBe(false);
    expect(await isOpen(targetId)).toBe(true);
  });

  it('a sender allowed to act without asking: runs at once, nobody is asked', async () => {
    const { targetId, batch } = await tabToClose('Trusted close');
    expect((await send(batch, { actWithoutAsking: true })).status).toBe('done');
    expect(asked).toEqual([]);
    await r.raw.waitFor(async () => !(await isOpen(targetId)), 'the tab to close');
  });

  it('a confirm list emptied by hand still asks; a forged resolution (another tab) is refused as "the desk changed"; nothing closes', async () => {
    const { targetId, batch } = await tabToClose('Keep me');
    const noConfirm = send({ ...batch, confirm: [], plan: batch.plan.map((p) => ({ ...p, destructive: false })) }, { deadline: Date.now() + 1_500 });
    await waitFor('the question on the target', () => consents.list()[0]);
    expect((await noConfirm).results.map((o) => o.code)).toEqual(['not_confirmed']);

    // The row says tab_indices [n] but resolves it to another tab (the victim) than this desk does.
    const victim = await tabToClose('Victim');
    const cmd = batch.commands[0]!;
    if (cmd.type !== 'close_tab') throw new Error('expected close_tab');
    const victimTab = (victim.batch.commands[0] as typeof cmd).tabs[0]!;
    const forged: PreparedBatch = { ...batch, commands: [{ ...cmd, tabs: [victimTab] }] };
    const got = await send(forged, { actWithoutAsking: true });
    expect(got.status).toBe('invalid');
    expect(got.results.map((o) => o.code)).toEqual(['desk_changed']);
    expect(got.errors[0]).toEqual({ path: 'commands[0]', message: expect.stringMatching(/^the desk changed since "your laptop" looked at it/) });
    expect(await isOpen(targetId)).toBe(true);
    expect(await isOpen(victim.targetId)).toBe(true);
  });

  it('undo from another device asks first (it may close what the last batch opened): unanswered → not confirmed, the tab it would close stays', async () => {
    const url = r.desk.pages.url('page', { title: 'Opened by a batch' });
    const opened = await r.local.exec({ type: 'open_url', url });
    expect(opened.status).toBe('done');
    await r.raw.waitFor(async () => (await r.raw.pages()).some((p) => p.url === url), 'the batch to open its tab');
    const prepared = await r.local.prepare({ type: 'undo' });
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.report.errors));
    const got = await send(prepared.batch, { deadline: Date.now() + 1_500 });
    expect(asked.map((q) => q.items.map((i) => i.summary))).toEqual([[prepared.batch.plan[0]!.summary]]);
    expect(got.results.map((o) => o.code)).toEqual(['not_confirmed']);
    expect((await r.raw.pages()).some((p) => p.url === url)).toBe(true);
  });

  it('the desk changed after the sender looked (the tab it saw is gone, another took its index): refused, nothing closes', async () => {
    const first = await tabToClose('Seen by the sender');
    await r.raw.close(first.targetId);
    const other = await tabToClose('Opened since');
    // Same index now names another tab, unless the new tab landed elsewhere: then the index names nothing.
    const got = await send(first.batch, { actWithoutAsking: true });
    expect(['invalid', 'unavailable']).toContain(got.status);
    expect(asked).toEqual([]);
    expect(await isOpen(other.targetId)).toBe(true);
  });
});
