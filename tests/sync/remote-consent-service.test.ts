// The target's user answers from the command line: another device's request to close a tab
// waits in the host serving this desk's socket (as `deskpilot service` serves it), the real CLI
// (a child process) lists it with `devices requests [--json]` and answers it with
// `devices approve|deny ID`. Real desktop and Chromium; the tab is checked with raw CDP.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runRemoteBatch } from '../../src/app/sync/remote-gate';
import type { ExecReport } from '../../src/protocol/report';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';
import { startGateRig, type GateRig } from './remote-gate-rig';

describeDesktop('deskpilot devices requests / approve / deny answer the service (real CLI, desktop, Chromium)', () => {
  let r: GateRig;

  beforeAll(async () => {
    r = await startGateRig({ serve: true });
  });

  afterAll(async () => {
    await r?.stop();
  });

  /** A close of a tab of its own, sent as another device would; resolves with the row id and the report to come. */
  async function closeFromLaptop(title: string): Promise<{ targetId: string; rowId: string; report: Promise<ExecReport> }> {
    const targetId = await r.raw.open(r.desk.pages.url('page', { title }));
    // Listed with its title, not only its address: the summary the request shows names the tab by it.
    const tab = await waitFor(`the snapshot to list ${title}`, async () => (await r.local.snapshot()).tabs.find((t) => t.target_id === targetId && t.title === title));
    const prepared = await r.local.prepare({ type: 'close_tab', tab_indices: [tab.index] });
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.report.errors));
    const rowId = `row-${prepared.batch.id}`;
    const report = runRemoteBatch(
      { rowId, sender: { id: 'laptop-id', name: 'your laptop', actWithoutAsking: false }, batch: prepared.batch, askedBy: 'ana', deadline: Date.now() + 120_000 },
      { desk: r.local, consent: r.host!.consents, deviceName: 'desk at home' },
    );
    await waitFor('the request to wait in the service', () => r.host!.consents.list().some((q) => q.id === rowId));
    return { targetId, rowId, report };
  }

  const isOpen = async (targetId: string) => (await r.raw.pages()).some((p) => p.targetId === targetId);

  it('lists the waiting request (text and --json); approve runs it: the tab closes', async () => {
    const { targetId, rowId, report } = await closeFromLaptop('Close me from the laptop');
    const listed = await runCli(['devices', 'requests', '--json'], { env: r.env });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.json.requests).toEqual([
      expect.objectContaining({ id: rowId, from: { id: 'laptop-id', name: 'your laptop' }, asked_by: 'ana', on: 'desk at home', items: [expect.objectContaining({ summary: expect.stringMatching(/Close me from the laptop/) })] }),
    ]);
    const text = await runCli(['devices', 'requests'], { env: r.env });
    expect(text.stdout).toContain(`${rowId}  from "your laptop" (asked by ana there)`);
    expect(await isOpen(targetId)).toBe(true);

    const approved = await runCli(['devices', 'approve', rowId], { env: r.env });
    expect({ code: approved.code, stdout: approved.stdout }).toEqual({ code: 0, stdout: `Approved ${rowId}: it runs now on this desk.\n` });
    expect((await report).status).toBe('done');
    await r.raw.waitFor(async () => !(await isOpen(targetId)), 'the approved tab to close');
    expect((await runCli(['devices', 'requests', '--json'], { env: r.env })).json).toEqual({ requests: [] });
  });

  it('deny: nothing runs, the tab stays; answering it again is refused with exit 2', async () => {
    const { targetId, rowId, report } = await closeFromLaptop('Keep me open');
    const denied = await runCli(['devices', 'deny', rowId], { env: r.env });
    expect(denied.code).toBe(0);
    const got = await report;
    expect(got.status).toBe('cancelled');
    expect(got.results.map((o) => o.code)).toEqual(['declined']);
    expect(await isOpen(targetId)).toBe(true);

    const again = await runCli(['devices', 'approve', rowId], { env: r.env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`no request ${rowId} waits for an answer here`));
    expect(await isOpen(targetId)).toBe(true);
  });

  it('with no service running, says where requests wait (exit 1)', async () => {
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-no-service-'));
    try {
      const got = await runCli(['devices', 'requests'], { env: { ...r.env, DESKPILOT_CONFIG_DIR: elsewhere } });
      expect(got.code).toBe(1);
      expect(got.stderr).toMatch(/no DeskPilot service is running .*start it with `deskpilot service`/);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
