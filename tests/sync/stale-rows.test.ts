import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';
import { Device, onlineWithDesk, pairThroughCli, startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

// Issue 29.4 (seed 003: "next cleanup cycle on any device deletes the stale row"): B is
// offline; A's command for B expires; C — a third paired device, whose service only watches —
// removes the row once it is past its TTL (and the margin), so B coming back finds nothing to
// run or to delete. Real `deskpilot sync-server`, real warm services; C runs on A's desktop with
// its own config folder (it acts on nothing).

const A = 'work laptop';
const B = 'home desktop';
const C = 'old tower';
/** Short TTLs for every device of this test (they must agree). */
const TTL = { DESKPILOT_SYNC_TTL_MS: '2000' };

describeDesktop('stale rows are cleaned by any device (issue 29.4)', () => {
  let rig: TwoDevices;
  let c: Device;

  beforeAll(async () => {
    rig = await startTwoDevices(A, B);
    c = new Device(C, rig.deskA, rig.server.url);
    await pairThroughCli(rig.a, c);
  }, 300_000);

  afterAll(async () => {
    await c?.stopService();
    c?.dispose();
    await stopTwoDevices(rig ?? {});
  });

  it("B offline: A's row expires, C removes it, and B coming back runs nothing", async () => {
    // B has published its desk once (a command is prepared against it), then goes offline.
    await rig.b.startService(TTL);
    await onlineWithDesk(rig.obs, B);
    const bId = rig.obs.doc.devices().find((d) => d.name === B)!.id;
    await rig.b.stopService();
    await waitFor('B to be offline', () => !rig.obs.onlineDevices().has(bId));
    await c.startService(TTL);
    await onlineWithDesk(rig.obs, C);
    const url = rig.deskB.pages.url('page', { title: 'Stale Row' });
    const sent = await rig.a.cli(['exec', '--device', B, JSON.stringify({ type: 'open_url', url })], { env: TTL });
    expect(sent.code, sent.stderr).toBe(1);
    expect(sent.stderr).toContain('may be offline');

    await waitFor('C to remove the expired row', () => rig.obs.doc.rowIds().length === 0);
    expect(c.service!.output()).toMatch(new RegExp(`removed command \\S+ from "${A}" to "${B}": nobody took it within its TTL`));

    const seenBefore = rig.obs.doc.device(bId)!.last_seen;
    await rig.b.startService(TTL);
    // Synced again, B's worker writes its row and, in the same turn, looks at every row there is.
    await waitFor('B to be back (its row refreshed)', () => rig.obs.onlineDevices().has(bId) && rig.obs.doc.device(bId)!.last_seen > seenBefore);
    const out = rig.b.service!.output();
    expect(out).not.toContain('running command');
    expect(out).not.toContain('expired before it reached this device');
    expect((await rig.rawB.pages()).map((p) => p.url)).not.toContain(url);
  });
});
