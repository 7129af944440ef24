import { afterAll, beforeAll, expect, it } from 'vitest';
import { RemoteDevices } from '../../src/app/sync/remote-devices';
import type { ContextSnapshot } from '../../src/protocol/context';
import { dataOf, stdioClient, textOf, type McpTestClient } from '../mcp/mcp-client';
import { describeDesktop } from '../support/describe-desktop';
import { launch, stopProc, type Proc } from '../support/desktop';
import { waitFor } from '../support/wait-for';
import { frameOf, wmWindows } from '../support/x-observe';
import { onlineWithDesk, startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

// Issue 27 across devices, window by window: B's desktop has two xterms (xterm -T, distinct
// titles). A's MCP server lists B's windows from the desk B published through the sync server
// and places B's SECOND xterm by its window id; xwininfo on B's display shows that one moved and
// the other did not. The id is resolved again on B's live desk by B's gate: a batch prepared
// against B's older desk, naming a window B has closed since, is refused there and moves nothing.

const A = 'work laptop';
const B = 'home desktop';
const TITLES = ['b-first', 'b-second', 'b-closing'];

type WindowRow = { id: string; app: string; title: string; device?: string };

describeDesktop("another device's windows, one by one (issue 27)", () => {
  let rig: TwoDevices;
  let mcp: McpTestClient;
  let bId: string;
  const xterms: Record<string, Proc> = {};
  const ids: Record<string, string> = {};

  const published = () => rig.obs.doc.readSnapshot(bId).snapshot;
  const xtermsOn = (snap: ContextSnapshot | null) => snap?.running_apps.find((a) => a.name === 'XTerm')?.windows.map((w) => w.title).sort() ?? [];

  beforeAll(async () => {
    rig = await startTwoDevices(A, B);
    for (const title of TITLES) xterms[title] = await launch(title, 'xterm', ['-T', title, '-geometry', '60x15+40+40'], rig.deskB.env);
    await waitFor('three xterms on B', () => TITLES.every((t) => wmWindows(rig.deskB.env).some((w) => w.title === t)));
    for (const w of wmWindows(rig.deskB.env)) if (TITLES.includes(w.title)) ids[w.title] = `0x${w.id.toString(16)}`;
    await rig.b.startService();
    await onlineWithDesk(rig.obs, B);
    bId = rig.obs.doc.devices().find((d) => d.name === B)!.id;
    await waitFor("B's published desk to list its three xterms", () => xtermsOn(published()).length === 3);
    mcp = await stdioClient(rig.a.env());
  }, 300_000);

  afterAll(async () => {
    await mcp?.close();
    for (const p of Object.values(xterms)) await stopProc(p);
    await stopTwoDevices(rig ?? {});
  });

  it("list_windows with device: B lists B's xterms with their X ids; place_app by the second one's id moves it on B, and only it", async () => {
    const listed = await mcp.call('list_windows', { device: B });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    const rows = dataOf(listed).windows as WindowRow[];
    for (const title of TITLES) expect(rows.find((w) => w.title === title)).toMatchObject({ app: 'XTerm' });
    const second = rows.find((w) => w.title === 'b-second')!;
    expect(Number(second.id)).toBe(Number(ids['b-second']));

    const firstBefore = frameOf(rig.deskB.env, ids['b-first']!);
    const placed = await mcp.call('place_app', { app_name: 'XTerm', window_id: second.id, bounds: [2000, 100, 2500, 400], device: B });
    expect(placed.isError, textOf(placed)).toBeFalsy();
    expect(textOf(placed)).toContain(`On "${B}"`);
    await waitFor("B's second xterm at 2000,100", () => frameOf(rig.deskB.env, ids['b-second']!).slice(0, 2).join() === '2000,100' || undefined);
    expect(frameOf(rig.deskB.env, ids['b-first']!)).toEqual(firstBefore);
  });

  it('list_windows with device: "all" lists B\'s xterms under B beside this desk\'s windows', async () => {
    const r = await mcp.call('list_windows', { device: 'all' });
    expect(r.isError, textOf(r)).toBeFalsy();
    const rows = dataOf(r).windows as WindowRow[];
    expect(rows.filter((w) => w.app === 'XTerm').map((w) => [w.device, w.title]).sort()).toEqual(TITLES.map((t) => [B, t]).sort());
    expect(rows.some((w) => w.device === A && w.app === 'Chromium')).toBe(true);
  });

  it("a window id B closed since the desk A prepared against is refused by B's gate, and nothing moves", async () => {
    const session = { doc: rig.obs.doc, deviceId: rig.obs.doc.devices().find((d) => d.name === A)!.id, onlineDevices: () => rig.obs.onlineDevices(), flushed: (ms?: number) => rig.obs.flushed(ms) };
    const remote = new RemoteDevices(session);
    const device = rig.obs.doc.device(bId)!;
    const before = published()!;
    // Prepared as A would, against B's desk with the closing xterm still there.
    const prepared = await remote.prepare(device, { type: 'place_app', app_name: 'XTerm', window_id: ids['b-closing']!, bounds: [2600, 500, 3100, 800] }, before);
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.report));

    await stopProc(xterms['b-closing']!);
    delete xterms['b-closing'];
    await waitFor('the closing xterm gone from B', () => !wmWindows(rig.deskB.env).some((w) => w.title === 'b-closing'));
    const frames = () => ['b-first', 'b-second'].map((t) => frameOf(rig.deskB.env, ids[t]!));
    const framesBefore = frames();

    const report = await remote.run(device, prepared.batch);
    // B's own preparation of the same input, on its live desk, refused it: the row's resolved window is never used.
    expect(report.status).toBe('invalid');
    expect(report.errors.map((e) => `${e.path}: ${e.message}`).join('\n')).toContain(`window_id: no window ${ids['b-closing']} is open now`);
    expect(report.results.filter((r) => r.ok)).toEqual([]);
    expect(frames()).toEqual(framesBefore);
  });
});
