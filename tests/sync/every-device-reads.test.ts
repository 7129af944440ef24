import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataOf, stdioClient, textOf, type McpTestClient } from '../mcp/mcp-client';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';
import { onlineWithDesk, startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

// Issue 29.4 (seed 003's read tools): list_tabs, search_tabs, count_tabs_by_domain and
// list_windows with device: "all" answer from this desk and every other device's published desk
// in one call, each row tagged with its device; an offline device says since when its desk is
// known. The same through the CLI (`deskpilot tabs`, `deskpilot windows --device all`). Real
// sync server, two desktops with their own Chromium, B's warm service publishing, A's MCP server
// through the SDK's client (which checks each answer against the tool's outputSchema).

const A = 'work laptop';
const B = 'home desktop';

type Row = { device: string; i: number; title: string; site: string };
type DeviceNote = { name: string; online: boolean; stale?: boolean; as_of: string; snapshot_id?: string; this_device?: boolean };

describeDesktop('reads across devices: device "all" (issue 29.4)', () => {
  let rig: TwoDevices;
  let mcp: McpTestClient;
  let bId: string;

  beforeAll(async () => {
    rig = await startTwoDevices(A, B);
    await Promise.all([rig.rawA.open(rig.deskA.pages.url('page', { title: 'Alpha Notes' })), rig.rawB.open(rig.deskB.pages.url('page', { title: 'Kitten Gallery' }))]);
    await rig.b.startService();
    await onlineWithDesk(rig.obs, B);
    bId = rig.obs.doc.devices().find((d) => d.name === B)!.id;
    await waitFor("B's published desk to list its kitten tab", () => rig.obs.doc.readSnapshot(bId).snapshot?.tabs.some((t) => t.title === 'Kitten Gallery'));
    mcp = await stdioClient(rig.a.env());
  }, 300_000);

  afterAll(async () => {
    await mcp?.close();
    await stopTwoDevices(rig ?? {});
  });

  it('list_tabs with device: "all" lists both desks\' tabs, each with its device, and a row\'s i with its device\'s snapshot_id names that tab there', async () => {
    const r = await mcp.call('list_tabs', { device: 'all' });
    expect(r.isError, textOf(r)).toBeFalsy();
    const { tabs, devices } = dataOf(r) as { tabs: Row[]; devices: DeviceNote[] };
    expect(tabs).toContainEqual(expect.objectContaining({ device: A, title: 'Alpha Notes' }));
    expect(tabs).toContainEqual(expect.objectContaining({ device: B, title: 'Kitten Gallery' }));
    expect(tabs.filter((t) => t.title === 'Kitten Gallery').map((t) => t.device)).toEqual([B]);
    expect(devices.map((d) => [d.name, d.online, d.stale ?? false])).toEqual([
      [A, true, false],
      [B, true, false],
    ]);
    expect(textOf(r)).toContain(`"${B}": `);

    const kitten = tabs.find((t) => t.title === 'Kitten Gallery')!;
    const onB = devices.find((d) => d.name === B)!;
    const switched = await mcp.call('switch_tab', { device: B, snapshot_id: onB.snapshot_id, tab_index: kitten.i });
    expect(switched.isError, textOf(switched)).toBeFalsy();
    expect(textOf(switched)).toContain('Kitten Gallery');
  });

  it('search_tabs, count_tabs_by_domain and list_windows with device: "all" answer from both desks, tagged', async () => {
    const found = await mcp.call('search_tabs', { device: 'all', query: 'kitten' });
    expect(found.isError, textOf(found)).toBeFalsy();
    expect((dataOf(found).tabs as Row[]).map((t) => [t.device, t.title])).toEqual([[B, 'Kitten Gallery']]);

    const counted = await mcp.call('count_tabs_by_domain', { device: 'all' });
    expect(counted.isError, textOf(counted)).toBeFalsy();
    const sites = dataOf(counted).sites as Array<{ site: string; n: number; devices: Record<string, number> }>;
    const listed = dataOf(await mcp.call('list_tabs', { device: 'all' })).tabs as Row[];
    expect(sites.reduce((n, s) => n + s.n, 0)).toBe(listed.length);
    // Both test pages are on 127.0.0.1: one site, split by device.
    const local = sites.find((s) => s.site === listed.find((t) => t.title === 'Kitten Gallery')!.site)!;
    expect(Object.keys(local.devices).sort()).toEqual([B, A].sort());

    const windows = await mcp.call('list_windows', { device: 'all' });
    expect(windows.isError, textOf(windows)).toBeFalsy();
    const rows = dataOf(windows).windows as Array<{ device: string; app: string; id: string }>;
    expect(rows.filter((w) => w.app === 'Chromium').map((w) => w.device).sort()).toEqual([B, A].sort());
  });

  it('a tool that acts refuses device: "all", and nothing is sent', async () => {
    const r = await mcp.call('open_url', { device: 'all', url: 'https://example.org' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('device: "all" is for reading');
    expect(rig.obs.doc.rowIds()).toEqual([]);
  });

  it('the CLI: `deskpilot tabs WORDS` and `deskpilot windows --device all --json` across devices', async () => {
    const tabs = await rig.a.cli(['tabs', 'kitten']);
    expect(tabs.code, tabs.stderr).toBe(0);
    expect(tabs.stdout).toMatch(new RegExp(`^${B}  \\d+\\*? w\\d+ \\S+ "Kitten Gallery"`, 'm'));
    expect(tabs.stdout).not.toContain('Alpha Notes');
    expect(tabs.stdout).toContain(`"${A}" (this computer): `);

    const windows = await rig.a.cli(['windows', '--device', 'all', '--json']);
    expect(windows.code, windows.stderr).toBe(0);
    const out = JSON.parse(windows.stdout) as { devices: Array<{ device: string; stale: boolean }>; windows: Array<{ device: string; app: string }> };
    expect(out.devices.map((d) => d.device).sort()).toEqual([B, A].sort());
    expect(out.windows.filter((w) => w.app === 'Chromium').map((w) => w.device).sort()).toEqual([B, A].sort());
  });

  it('`run "… on all my computers"`: the offline matcher\'s read answered from both desks; acting on every device is refused and sends nothing', async () => {
    const listed = await rig.a.cli(['run', '--planner', 'local', 'list my tabs on all my computers']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${B}  \\d+\\*? w\\d+ \\S+ "Kitten Gallery"`, 'm'));
    expect(listed.stdout).toMatch(new RegExp(`^${A}  \\d+\\*? w\\d+ \\S+ "Alpha Notes"`, 'm'));

    const refused = await rig.a.cli(['run', '--planner', 'local', '--yes', 'close the kitten gallery tab on every device']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('to act, name one device');
    expect(rig.obs.doc.rowIds()).toEqual([]);
    expect((await rig.rawB.pages()).some((p) => p.title === 'Kitten Gallery')).toBe(true);
  });

  it('B offline: its published tabs are still listed, marked stale with the time they were last known', async () => {
    await rig.b.stopService();
    await waitFor('B to be offline', () => !rig.obs.onlineDevices().has(bId));
    const r = await mcp.call('list_tabs', { device: 'all' });
    expect(r.isError, textOf(r)).toBeFalsy();
    const { tabs, devices } = dataOf(r) as { tabs: Row[]; devices: DeviceNote[] };
    expect(tabs).toContainEqual(expect.objectContaining({ device: B, title: 'Kitten Gallery' }));
    const b = devices.find((d) => d.name === B)!;
    expect(b).toMatchObject({ online: false, stale: true });
    expect(Date.parse(b.as_of)).toBe(rig.obs.doc.device(bId)!.last_seen);
    expect(textOf(r)).toMatch(new RegExp(`"${B}": \\d+ tabs?, offline — as it was \\d+ (s|min) ago, it may have changed since`));

    const cli = await rig.a.cli(['tabs', '--by-site', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { devices: Array<{ device: string; stale: boolean }> }).devices.find((d) => d.device === B)!.stale).toBe(true);
  });
});
