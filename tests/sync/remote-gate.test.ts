// What a command row may make this desk do: only what a local exec may, decided here. A real X
// desktop, a real Chromium and DeskPilot's engine wired as the CLI wires it; the hostile row is
// played by hand-made batches (resolved fields and `confirm` items as a hostile writer of the
// shared document would set them). Effects are checked with wmctrl, /proc and raw CDP, not
// through DeskPilot.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runRemoteBatch, type RemoteBatchRequest } from '../../src/app/sync/remote-gate';
import type { PreparedBatch } from '../../src/protocol/prepared-batch';
import type { ExecReport } from '../../src/protocol/report';
import { describeDesktop } from '../support/describe-desktop';
import { forgedBatch, processesWith, startGateRig, windowList, type GateRig } from './remote-gate-rig';
import { stopGroup } from '../support/process-group';
import { waitFor } from '../support/wait-for';

const sender = { id: 'laptop-id', name: 'your laptop', actWithoutAsking: false };
const remote = (r: GateRig, batch: PreparedBatch): Promise<ExecReport> => {
  const req: RemoteBatchRequest = { rowId: `row-${batch.id}`, sender, batch, askedBy: 'someone at the laptop', deadline: Date.now() + 60_000 };
  // Nobody is asked in these tests: nothing here needs a yes once it is refused.
  return runRemoteBatch(req, { desk: r.local, consent: null, deviceName: 'this desk' });
};
const fieldErrors = (report: ExecReport) => report.errors.map((e) => e.path);

describeDesktop('a remote batch gets no more than a local one (real desktop, Chromium, engine)', () => {
  let r: GateRig;
  let deviceId: string;

  beforeAll(async () => {
    r = await startGateRig();
    deviceId = r.local.engine.deviceId;
  });

  afterAll(async () => {
    await r?.stop();
  });

  /** Asserts nothing was started: no new window, no process running either script, no marker. */
  async function nothingSpawned(windowsBefore: string[]): Promise<void> {
    expect(await windowList(r.desk)).toEqual(windowsBefore);
    expect(await processesWith(r.hostileScript)).toEqual([]);
    expect(await processesWith(r.listedScript)).toEqual([]);
    expect(existsSync(r.marker)).toBe(false);
  }

  const openRecent = (path: string, app: string | null) => ({
    type: 'open_recent' as const,
    command: { type: 'open_recent' as const, path, ...(app ? { app_name: app } : {}) },
    path,
    kind: 'file' as const,
    app,
  });

  it('open_recent of a path not in the recent list: refused by exec, by run of a hand-made batch and through the remote path; nothing spawned', async () => {
    const before = await windowList(r.desk);
    const exec = await r.local.exec({ type: 'open_recent', path: r.hostileScript, app_name: 'XTerm' });
    expect(exec.status).toBe('invalid');
    expect(fieldErrors(exec)).toEqual(['commands[0].path']);

    // The batch a hostile row carries: resolved to the script, in XTerm ("xterm <path>" runs it).
    const forged = forgedBatch(deviceId, [openRecent(r.hostileScript, 'XTerm')]);
    const run = await r.local.run(forged);
    expect(run.status).toBe('invalid');
    expect(fieldErrors(run)).toEqual(['commands[0].path']);
    expect(run.errors[0]!.message).toMatch(/not one of this desk's recent files as listed now/);

    const viaRow = await remote(r, forgedBatch(deviceId, [openRecent(r.hostileScript, 'XTerm')]));
    expect(viaRow.status).toBe('invalid');
    expect(fieldErrors(viaRow)).toEqual(['commands[0].path']);

    const shadow = await remote(r, forgedBatch(deviceId, [openRecent('/etc/shadow', null)]));
    expect(shadow.status).toBe('invalid');
    expect(fieldErrors(shadow)).toEqual(['commands[0].path']);
    expect(await processesWith('/etc/shadow')).toEqual([]);
    await nothingSpawned(before);
  });

  it('open_recent of a listed script through a terminal, or with the default handler (it is executable): refused, nothing spawned', async () => {
    const before = await windowList(r.desk);
    const inXterm = await r.local.exec({ type: 'open_recent', path: r.listedScript, app_name: 'XTerm' });
    expect(inXterm.status).toBe('invalid');
    expect(inXterm.errors).toEqual([{ path: 'commands[0].app_name', message: expect.stringMatching(/XTerm is a terminal, which runs the file/) }]);

    const byDefault = await r.local.exec({ type: 'open_recent', path: r.listedScript });
    expect(byDefault.status).toBe('invalid');
    expect(byDefault.errors).toEqual([{ path: 'commands[0].path', message: expect.stringMatching(/deploy\.sh is executable/) }]);

    const viaRow = await remote(r, forgedBatch(deviceId, [openRecent(r.listedScript, 'XTerm')]));
    expect(viaRow.status).toBe('invalid');
    expect(fieldErrors(viaRow)).toEqual(['commands[0].app_name']);
    await nothingSpawned(before);
  });

  it('a listed note in an app that opens files still opens, through the remote path too (the rules refuse only what runs files)', async () => {
    const sent = await r.local.prepare({ type: 'open_recent', path: r.notes, app_name: 'Test Viewer' });
    if (!sent.ok) throw new Error(JSON.stringify(sent.report.errors));
    const report = await remote(r, sent.batch);
    expect(report.status).toBe('done');
    const pid = (report.results[0]!.data as { pid: number }).pid;
    try {
      await waitFor('the viewer to run on the note', async () => (await processesWith(r.notes)).includes(pid));
    } finally {
      await stopGroup(pid);
    }
  });

  const hostileUrls = () => [
    'file:///etc/passwd',
    'javascript:alert(document.cookie)',
    'data:text/html,<h1>Sign in to your bank</h1>',
    'chrome://settings',
    'chrome-extension://aapocclcgogkmnckokdopfmhonfmgoek/main.html',
    'about:config',
    'view-source:http://example.com/',
    'devtools://devtools/bundled/inspector.html',
    // The DevTools endpoint DeskPilot drives: its listing hands out control of every tab.
    `http://127.0.0.1:${r.desk.chrome!.port}/json/list`,
    `http://localhost:${r.desk.chrome!.port}/json/version`,
  ];

  it('every forbidden scheme and the DevTools endpoint: refused by exec with the url field named, and through the remote path with a hand-added confirm item; no tab opens', async () => {
    const tabsBefore = (await r.raw.pages()).map((p) => p.targetId).sort();
    for (const url of hostileUrls()) {
      const exec = await r.local.exec({ type: 'open_url', url });
      expect({ url, status: exec.status, fields: fieldErrors(exec) }).toEqual({ url, status: 'invalid', fields: ['commands[0].url'] });

      // "You typed it and said yes" as a row says it: a confirm item for the address.
      const forged = forgedBatch(deviceId, [{ type: 'open_url', command: { type: 'open_url', url }, url, domain: '' }], [
        { index: 0, kind: 'open_url', summary: `open ${url}`, targets: [url] },
      ]);
      const viaRow = await remote(r, forged);
      expect({ url, status: viaRow.status, fields: fieldErrors(viaRow) }).toEqual({ url, status: 'invalid', fields: ['commands[0].url'] });
    }
    expect((await r.raw.pages()).map((p) => p.targetId).sort()).toEqual(tabsBefore);
  });

  it('a web address still opens through the remote path', async () => {
    const url = r.desk.pages.url('page', { title: 'Allowed page' });
    const sent = await r.local.prepare({ type: 'open_url', url });
    if (!sent.ok) throw new Error(JSON.stringify(sent.report.errors));
    const report = await remote(r, sent.batch);
    expect(report.status).toBe('done');
    await r.raw.waitFor(async () => (await r.raw.pages()).some((p) => p.url === url), 'the allowed page to open');
  });
});
