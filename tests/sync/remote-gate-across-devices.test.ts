// The target decides, across two real DeskPilots: two test desktops with their own Chromium,
// one real `deskpilot sync-server`, B's real warm service running its device worker, devices
// paired through the CLI. A close of one of B's tabs sent from A's CLI waits on B until B's
// user answers with `deskpilot devices approve|deny`; rows that A's own keys signed (a stolen
// device, or a hostile sender B trusts) but whose batch is hostile are refused by B's own
// preparation. Effects are checked in B's Chromium (raw CDP), /proc and the file system.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PreparedBatch } from '../../src/protocol/prepared-batch';
import { ROW_VERSION, type CommandRow } from '../../src/protocol/sync';
import type { ExecReport } from '../../src/protocol/report';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';
import { forgedBatch, processesWith } from './remote-gate-rig';
import { onlineWithDesk, startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

const A = 'work laptop';
const B = 'desk at home';

describeDesktop('what B runs is what B decides (two desktops, sync server, real services)', () => {
  let t: TwoDevices;
  let scratch: string;

  beforeAll(async () => {
    t = await startTwoDevices(A, B);
    scratch = await mkdtemp(path.join(os.tmpdir(), 'deskpilot-gate-x-'));
    await t.b.startService();
    await onlineWithDesk(t.obs, B);
  }, 300_000);

  afterAll(async () => {
    await stopTwoDevices(t ?? {});
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const idOf = (name: string) => t.obs.doc.devices().find((r) => r.name === name)!.id;
  const urls = async () => (await t.rawB.pages()).map((p) => p.url);
  const indexOnB = (url: string) =>
    waitFor(`B to publish its tab ${url}`, () => t.obs.doc.readSnapshot(idOf(B)).snapshot?.tabs.find((tab) => tab.url === url)?.index);

  /** A close of B's tab sent by A's CLI; resolves once B's service says the request waits for its user. */
  async function sendClose(title: string) {
    const url = t.deskB.pages.url('page', { title });
    await t.rawB.open(url);
    const index = await indexOnB(url);
    const seen = t.b.service!.output().length;
    const sender = t.a.spawnCli(['exec', '--device', B, JSON.stringify({ type: 'close_tab', tab_indices: [index] })]);
    await waitFor("B's service to log the request", () => t.b.service!.output().slice(seen).includes(`"${A}" asks to close tab`));
    const listed = await t.b.cli(['devices', 'requests', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const requests = listed.json.requests as Array<{ id: string; from: { name: string }; items: Array<{ summary: string }> }>;
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ from: { name: A }, items: [{ summary: expect.stringContaining(title) }] });
    return { url, sender, id: requests[0]!.id };
  }

  it('a close from A waits for a yes on B: nothing closes meanwhile; approve on B → it closes and A gets the report', async () => {
    const { url, sender, id } = await sendClose('Close From The Laptop');
    expect(await urls()).toContain(url);
    const approved = await t.b.cli(['devices', 'approve', id]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(await sender.exited).toBe(0);
    await t.rawB.waitFor(async () => !(await urls()).includes(url), 'the tab on B to close');
  });

  it('deny on B: nothing closes, A is told it was declined on B', async () => {
    const { url, sender, id } = await sendClose('Do Not Close');
    expect((await t.b.cli(['devices', 'deny', id])).code).toBe(0);
    expect(await sender.exited).not.toBe(0);
    // In A's JSON report (quotes escaped there).
    expect(sender.output()).toMatch(/declined on \\?"desk at home\\?" — nothing was run/);
    expect(await urls()).toContain(url);
  });

  /** Writes a row as A (signed and sealed with A's own keys, through an observer holding them) and waits for B's report. */
  async function rowFromA(batch: PreparedBatch): Promise<ExecReport> {
    const id = `hostile-${Math.random().toString(36).slice(2)}`;
    const row: CommandRow = { v: ROW_VERSION, id, deviceId: idOf(B), from: idOf(A), createdAt: Date.now(), action: 'run', batch, asked_by: 'you, on the laptop' };
    t.obs.doc.addRow(row);
    return waitFor(`B's answer to ${id}`, () => {
      const read = t.obs.doc.readRow(id);
      return read?.ok && read.row.action === 'run' ? read.row.result : undefined;
    });
  }

  it('rows signed by A with hostile batches: B refuses each by its own rules, with the field named; no tab, no process, no script ran', async () => {
    const marker = path.join(scratch, 'RAN');
    const script = path.join(scratch, 'evil.sh');
    await writeFile(script, `#!/bin/sh\necho ran > '${marker}'\nsleep 600\n`);
    await chmod(script, 0o755);
    const tabsBefore = (await t.rawB.pages()).length;
    const b = idOf(B);
    const recent = (p: string, app: string | null): PreparedBatch['commands'][number] => ({
      type: 'open_recent',
      command: { type: 'open_recent', path: p, ...(app ? { app_name: app } : {}) },
      path: p,
      kind: 'file',
      app,
    });
    const inXterm = await rowFromA(forgedBatch(b, [recent(script, 'XTerm')]));
    expect({ status: inXterm.status, fields: inXterm.errors.map((e) => e.path) }).toEqual({ status: 'invalid', fields: ['commands[0].path'] });
    const shadow = await rowFromA(forgedBatch(b, [recent('/etc/shadow', null)]));
    expect({ status: shadow.status, fields: shadow.errors.map((e) => e.path) }).toEqual({ status: 'invalid', fields: ['commands[0].path'] });

    const syncPort = new URL(t.server.url).port;
    const hostile = ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<h1>hi</h1>', 'chrome://settings', `http://127.0.0.1:${t.deskB.chrome!.port}/json/list`, `http://localhost:${syncPort}/`];
    for (const url of hostile) {
      const report = await rowFromA(
        forgedBatch(b, [{ type: 'open_url', command: { type: 'open_url', url }, url, domain: '' }], [{ index: 0, kind: 'open_url', summary: `open ${url}`, targets: [url] }]),
      );
      expect({ url, status: report.status, fields: report.errors.map((e) => e.path) }).toEqual({ url, status: 'invalid', fields: ['commands[0].url'] });
    }
    expect((await t.rawB.pages()).length).toBe(tabsBefore);
    expect(await processesWith(script)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });
});
