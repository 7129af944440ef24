import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataOf, stdioClient, textOf, type McpTestClient } from '../mcp/mcp-client';
import { describeDesktop } from '../support/describe-desktop';
import { waitFor } from '../support/wait-for';
import { frameOf, wmWindows } from '../support/x-observe';
import { onlineWithDesk, startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

// Issue 27 across devices: A's MCP server lists B's windows (from the desk B published through
// the sync server) and places one of them by its id; B's display is read with xwininfo/wmctrl.

const A = 'work laptop';
const B = 'home desktop';

describeDesktop('windows of another device through MCP (issue 27)', () => {
  let rig: TwoDevices;
  let mcp: McpTestClient;

  beforeAll(async () => {
    rig = await startTwoDevices(A, B);
    await rig.b.startService();
    await onlineWithDesk(rig.obs, B);
    mcp = await stdioClient(rig.a.env());
  }, 300_000);

  afterAll(async () => {
    await mcp?.close();
    await stopTwoDevices(rig ?? {});
  });

  it("list_windows with device: B gives B's Chromium window with its X id, and place_app by that id moves it on B only", async () => {
    const onB = wmWindows(rig.deskB.env).find((w) => /Chromium/.test(w.title))!;
    const listed = await mcp.call('list_windows', { device: B });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(textOf(listed)).toContain(`On "${B}"`);
    const win = (dataOf(listed).windows as Array<{ id: string; app: string }>).find((w) => Number(w.id) === onB.id)!;
    expect(win.app).toBe('Chromium');

    const onA = wmWindows(rig.deskA.env).find((w) => /Chromium/.test(w.title))!;
    const aBefore = frameOf(rig.deskA.env, `0x${onA.id.toString(16)}`);
    const placed = await mcp.call('place_app', { app_name: 'Chromium', window_id: win.id, bounds: [2000, 60, 2800, 660], device: B });
    expect(placed.isError, textOf(placed)).toBeFalsy();
    await waitFor("B's Chromium at 2000,60", () => frameOf(rig.deskB.env, win.id).slice(0, 2).join() === '2000,60' || undefined);
    expect(frameOf(rig.deskA.env, `0x${onA.id.toString(16)}`)).toEqual(aBefore);
  });
});
