import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { activeWindow, frameOf, isHidden, processRunning } from '../support/x-observe';
import { expectFrameNear } from '../support/expect-frame';
import { dataOf, stdioClient, textOf, type McpTestClient, tokenOf, callConfirmed } from './mcp-client';

// `deskpilot mcp` over stdio, driven by the SDK's own Client spawning it as a child process
// (as Claude Desktop, Cursor and VS Code do), on the real test desktop: every effect is read
// back through a second CDP connection or the X tools, never through DeskPilot itself.

const TOOL_NAMES = [
  'list_devices', 'desktop_snapshot', 'list_tabs', 'search_tabs', 'switch_tab', 'open_url', 'close_tabs',
  'count_tabs_by_domain', 'reload_tabs', 'pin_tabs', 'mute_tabs', 'group_tabs', 'ungroup_tabs', 'move_tabs',
  'close_duplicate_tabs', 'save_tabs', 'restore_tabs', 'list_apps', 'focus_app',
  'place_app', 'close_app', 'list_windows', 'swap_apps', 'tile_apps', 'set_app_state', 'list_recent', 'open_recent', 'list_presets', 'apply_preset', 'save_preset', 'undo', 'query', 'do',
];

describeDesktop('deskpilot mcp over stdio on a real desktop', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  /** A client that cannot ask the user (no elicitation capability). */
  let plain: McpTestClient;
  /** A client that can: each question is answered with `answer`. */
  let asking: McpTestClient;
  let answer: 'accept' | 'decline' = 'accept';
  let xtermId: string;

  const configFile = () => path.join(dir, 'config', 'config.json');

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm', 'xclock'], chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-'));
    mkdirSync(path.join(dir, 'data', 'applications'), { recursive: true });
    env = {
      ...desk.env,
      DESKPILOT_CONFIG_DIR: path.join(dir, 'config'),
      DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_DATA_DIRS: '/usr/share',
    };
    plain = await stdioClient(env);
    asking = await stdioClient(env, { elicit: async () => ({ action: answer }) });
    // The X id of xterm's window, from the CLI's own view (the tools' data leaves window ids out).
    const ctx = await runCli(['context', '--json', '--no-summaries'], { env });
    xtermId = (ctx.json.running_apps as Array<{ pid: number; windows: Array<{ id: string }> }>).find((a) => a.pid === desk.pids.apps.xterm)!.windows[0]!.id;
  });

  afterAll(async () => {
    await plain?.close();
    await asking?.close();
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Leaves exactly these tabs open, in this order, in one window. */
  async function tabs(...titles: string[]): Promise<void> {
    const before = await raw.pages();
    for (const t of titles) await raw.open(desk.pages.url('page', { title: t }));
    for (const p of before) await raw.close(p.targetId);
  }

  const targetOf = async (title: string) => (await raw.pages()).find((p) => p.title === title)!.targetId;
  const visible = async (title: string) => (await raw.evaluate(await targetOf(title), 'document.visibilityState')) === 'visible';
  /** list_tabs with ids, in the words these tests use (index, active, tab_id). */
  const listTabs = async () => {
    const r = await plain.call('list_tabs', { ids: true });
    expect(r.isError).toBeFalsy();
    const d = dataOf(r) as { snapshot_id: string; tabs: Array<{ i: number; title: string; active?: boolean; id: string }> };
    return { snapshot_id: d.snapshot_id, tabs: d.tabs.map((t) => ({ index: t.i, title: t.title, active: t.active === true, tab_id: t.id })) };
  };
  /** A tab's index by its title, in listTabs' rows (index) or list_tabs' own (i). */
  const indexIn = (snap: { tabs: Array<{ index?: number; i?: number; title: string }> }, title: string) => {
    const t = snap.tabs.find((x) => x.title === title)!;
    return t.index ?? t.i!;
  };

  it('lists every tool, each with a flat schema, a description and truthful annotations', async () => {
    const { tools } = await plain.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
      for (const [field, schema] of Object.entries(t.inputSchema.properties ?? {})) {
        expect((schema as { type?: string }).type, `${t.name}.${field}`).not.toBe('object');
        expect((schema as { description?: string }).description, `${t.name}.${field} is described`).toBeTruthy();
      }
      const a = t.annotations!;
      expect([a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint].every((v) => typeof v === 'boolean')).toBe(true);
    }
    const by = Object.fromEntries(tools.map((t) => [t.name, t.annotations!]));
    for (const n of ['desktop_snapshot', 'list_tabs', 'search_tabs', 'list_apps', 'list_presets', 'query']) expect(by[n]!.readOnlyHint, n).toBe(true);
    for (const n of ['close_tabs', 'close_app', 'do', 'undo']) expect(by[n]!.destructiveHint, n).toBe(true);
    for (const n of ['switch_tab', 'place_app', 'focus_app', 'open_url', 'apply_preset']) {
      expect(by[n]!.readOnlyHint, n).toBe(false);
      expect(by[n]!.destructiveHint, n).toBe(false);
    }
    expect(by.open_url!.openWorldHint).toBe(true);
    expect(by.switch_tab!.openWorldHint).toBe(false);
    expect(plain.stderr()).toContain('DeskPilot MCP server on stdio, with the engine in this process');
  });

  describe('tabs', () => {
    beforeEach(async () => {
      await tabs('One', 'Two', 'Three', 'Four', 'Five');
    });

    it('desktop_snapshot is the compact desk under a snapshot id', async () => {
      const r = await plain.call('desktop_snapshot');
      expect(r.isError).toBeFalsy();
      const text = textOf(r);
      const id = dataOf(r).snapshot_id as string;
      expect(id).toMatch(/^s\d+$/);
      expect(text.split('\n')[0]).toBe(`Snapshot ${id} (taken ${dataOf(r).taken_at}). Pass snapshot_id "${id}" with tab indices from it.`);
      expect(text).toContain('LEFT main,left bounds [0,0,1920,1080]');
      expect(text).toMatch(/\nXTerm: "[^"]*" \[\d+,\d+,\d+,\d+\] (LEFT|RIGHT)/);
      expect(text).toMatch(new RegExp(`\\n3 w1 ${new URL(desk.pages.base).host} "Three"\\n`));
      expect(dataOf(r).tabs.map((t: { title: string }) => t.title)).toEqual(['One', 'Two', 'Three', 'Four', 'Five']);
    });

    it('switch_tab with a snapshot id and index shows exactly that tab', async () => {
      const snap = await listTabs();
      expect(await visible('Two')).toBe(false);
      const r = await plain.call('switch_tab', { snapshot_id: snap.snapshot_id, tab_index: indexIn(snap, 'Two') });
      expect(textOf(r)).toBe('Switched to tab 2 "Two" (127.0.0.1)');
      expect(r.isError).toBeFalsy();
      await raw.waitFor(() => visible('Two'));
    });

    it('an index from an older snapshot still means the tab it meant after tabs before it closed', async () => {
      const old = await listTabs();
      await raw.close(await targetOf('One'));
      // "Three" was 3 in that snapshot; now "Four" is.
      const r = await plain.call('switch_tab', { snapshot_id: old.snapshot_id, tab_index: 3 });
      expect(r.isError).toBeFalsy();
      // Said as the client named it: tab 3 of that snapshot.
      expect(textOf(r)).toBe('Switched to tab 3 "Three" (127.0.0.1)');
      await raw.waitFor(() => visible('Three'));
      expect(await visible('Four')).toBe(false);
    });

    it('a tab closed since the snapshot is stale: a clear error with the open look-alikes, and nothing switches', async () => {
      await raw.open(desk.pages.url('page', { title: 'Three', desc: 'the other one' }));
      const old = await listTabs();
      const active = old.tabs.find((t) => t.active)!.title;
      await raw.close(old.tabs.find((t) => t.title === 'Three')!.tab_id);
      const r = await plain.call('switch_tab', { snapshot_id: old.snapshot_id, tab_index: 3 });
      expect(r.isError).toBe(true);
      const d = dataOf(r).error;
      expect(d.code).toBe('stale');
      expect(d.candidates.map((c: { title: string }) => c.title)).toEqual(['Three']);
      expect(textOf(r)).toBe(
        `Stale: tab 3 "Three" (127.0.0.1) is no longer open, so nothing was switched. Open tabs like it in snapshot ${d.snapshot_id}: ` +
          `tab 5 "Three" (127.0.0.1). To act on one, use snapshot_id "${d.snapshot_id}" with its index.`,
      );
      // Nothing was switched: the tab now at index 3 ("Four") stayed hidden, the active one stayed active.
      expect(await visible('Four')).toBe(active === 'Four');
      expect((await listTabs()).tabs.find((t) => t.active)!.title).toBe(active);
      // The fresh snapshot in the error is usable as it stands.
      const again = await plain.call('switch_tab', { snapshot_id: d.snapshot_id, tab_index: d.candidates[0].index });
      expect(again.isError).toBeFalsy();
      await raw.waitFor(async () => (await raw.evaluate(d.candidates[0].tab_id, 'document.visibilityState')) === 'visible');
    });

    it('a tab id names a tab without a snapshot; a gone one is stale', async () => {
      const snap = await listTabs();
      const five = snap.tabs.find((t) => t.title === 'Five')!;
      const r = await plain.call('switch_tab', { tab_id: five.tab_id });
      expect(textOf(r)).toBe('Switched to tab 5 "Five" (127.0.0.1)');
      await raw.close(five.tab_id);
      const gone = await plain.call('switch_tab', { tab_id: five.tab_id });
      expect(gone.isError).toBe(true);
      expect(dataOf(gone).error.code).toBe('stale');
      expect(textOf(gone)).toMatch(/^Stale: tab 5 "Five" \(127\.0\.0\.1\) is no longer open, so nothing was switched\. No open tab has the same title or site|^Stale: tab 5 "Five" \(127\.0\.0\.1\) is no longer open, so nothing was switched\. Open tabs like it/);
    });

    it('indices without a snapshot id, an unknown snapshot id, an index out of range: clear errors, nothing done', async () => {
      const snap = await listTabs();
      const noId = await plain.call('switch_tab', { tab_index: 2 });
      expect(noId.isError).toBe(true);
      expect(textOf(noId)).toMatch(/^snapshot_id is missing: a tab index means something only in the snapshot it came from/);
      const unknown = await plain.call('close_tabs', { snapshot_id: 's9999', tab_indices: [1], confirm: true });
      expect(textOf(unknown)).toBe('snapshot_id "s9999" is unknown or expired (snapshots are kept 10 minutes). Call list_tabs for a fresh snapshot_id and indices.');
      const range = await plain.call('close_tabs', { snapshot_id: snap.snapshot_id, tab_indices: [2, 9], confirm: true });
      expect(textOf(range)).toBe(`Nothing was done: snapshot ${snap.snapshot_id} has no tab 9 (its tabs are 1–5).`);
      const zero = await plain.call('switch_tab', { snapshot_id: snap.snapshot_id, tab_index: 0 });
      expect(zero.isError).toBe(true);
      expect(textOf(zero)).toContain('must be a positive integer (tab indices start at 1) at tab_index');
      expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Three', 'Two']);
    });

    it('search_tabs finds tabs by the words of their title, and says when nothing matches', async () => {
      const r = await plain.call('search_tabs', { query: 'thr' });
      expect(dataOf(r).tabs.map((t: { title: string }) => t.title)).toEqual(['Three']);
      expect(textOf(r)).toMatch(/^Snapshot (s\d+): 1 tab of 5 match "thr"\. Pass snapshot_id "\1" with a tab's index \(first number; \* active, w window\)\.\n3 w1 127\.0\.0\.1:\d+ "Three"$/);
      expect(dataOf(r).tabs[0]).toEqual({ i: 3, w: 1, title: 'Three', site: '127.0.0.1' });
      const none = await plain.call('search_tabs', { query: 'Fiev' });
      expect(none.isError).toBeFalsy();
      expect(textOf(none)).toMatch(/No tab matches "Fiev"\. Closest titles or sites: "Five"/);
    });

    it('open_url opens exactly one tab; a non-web address is refused and opens nothing', async () => {
      const url = desk.pages.url('page', { title: 'Opened' });
      const r = await plain.call('open_url', { url });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toBe(`Opened ${url} in a new tab`);
      await raw.waitFor(async () => (await raw.titles()).includes('Opened'));
      const file = await plain.call('open_url', { url: 'file:///etc/passwd' });
      expect(file.isError).toBe(true);
      expect(textOf(file)).toMatch(/^Nothing was done\. url: .*"file:"/);
      expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Opened', 'Three', 'Two']);
    });

    it('close_tabs from a client that cannot ask answers with what would close and a confirm_token; that token closes exactly those, once', async () => {
      const snap = await listTabs();
      const args = { snapshot_id: snap.snapshot_id, tab_indices: [2, 4] };
      const refused = await plain.call('close_tabs', args);
      expect(refused.isError).toBe(true);
      const token = tokenOf(refused);
      const what = 'close tab 2 "Two" (127.0.0.1), tab 4 "Four" (127.0.0.1)';
      expect(dataOf(refused)).toEqual({ status: 'needs_confirmation', needs_confirmation: [what], would_run: [what], confirm_token: token, expires_at: expect.any(String) });
      expect(textOf(refused)).toBe(
        `Not done yet: this needs the user's yes. It would:\n• ${what}\nAsk the user: "Close tab 2 "Two" (127.0.0.1), tab 4 "Four" (127.0.0.1)?" ` +
          `If they agree, call close_tabs again with the same arguments and confirm_token: "${token}" — it runs exactly this, once, within 2 minutes. If not, do nothing.`,
      );
      // confirm: true alone runs nothing: it is answered with the question and a token of its own.
      const bare = await plain.call('close_tabs', { ...args, confirm: true });
      expect(bare.isError).toBe(true);
      expect(textOf(bare)).toMatch(/^confirm: true alone runs nothing: the yes comes back as the confirm_token below\. Not done yet/);
      // The token with other arguments: refused (and used up).
      const other = await plain.call('close_tabs', { snapshot_id: snap.snapshot_id, tab_indices: [2], confirm_token: tokenOf(bare) });
      expect(textOf(other)).toMatch(/^Nothing was done: that confirm_token was given for other arguments/);
      expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Three', 'Two']);
      const done = await plain.call('close_tabs', { ...args, confirm_token: token });
      expect(done.isError).toBeFalsy();
      expect(textOf(done)).toBe('Closed 2 tabs: tab 2 "Two" (127.0.0.1), tab 4 "Four" (127.0.0.1)');
      expect(await raw.titles()).toEqual(['Five', 'One', 'Three']);
      const again = await plain.call('close_tabs', { ...args, confirm_token: token });
      expect(textOf(again)).toMatch(/^Nothing was done: confirm_token is unknown, used or expired/);
    });

    it('close_tabs from a client that can ask: the user is asked; decline keeps the tabs, accept closes them', async () => {
      // Snapshot ids belong to the server that handed them out: this client has its own.
      const snap = dataOf(await asking.call('list_tabs'));
      answer = 'decline';
      asking.asked.length = 0;
      // confirm: true from the model does not skip the question when the user can be asked.
      const declined = await asking.call('close_tabs', { snapshot_id: snap.snapshot_id, tab_indices: [indexIn(snap, 'Three')], confirm: true });
      expect(declined.isError).toBeFalsy();
      expect(textOf(declined)).toBe('Cancelled: the user said no. Nothing was done (close tab 3 "Three" (127.0.0.1)).');
      expect(asking.asked).toEqual(['DeskPilot is about to:\n• close tab 3 "Three" (127.0.0.1)\nAllow this?']);
      expect(await raw.titles()).toContain('Three');

      answer = 'accept';
      const own = await asking.call('list_tabs');
      const accepted = await asking.call('close_tabs', { snapshot_id: dataOf(own).snapshot_id, tab_indices: [indexIn(dataOf(own), 'Three')] });
      expect(textOf(accepted)).toBe('Closed 1 tab: tab 3 "Three" (127.0.0.1)');
      expect(asking.asked).toHaveLength(2);
      expect(await raw.titles()).toEqual(['Five', 'Four', 'One', 'Two']);
    });

    it('config.json can turn the question off per kind, as in the app', async () => {
      writeFileSync(configFile(), JSON.stringify({ ui: { confirm: { close_tab: false } } }));
      try {
        const snap = await listTabs();
        const r = await plain.call('close_tabs', { snapshot_id: snap.snapshot_id, tab_indices: [1] });
        expect(r.isError).toBeFalsy();
        expect(await raw.titles()).toEqual(['Five', 'Four', 'Three', 'Two']);
        // Closing apps still asks.
        const app = await plain.call('close_app', { app_name: 'XClock' });
        expect(dataOf(app).status).toBe('needs_confirmation');
        expect(processRunning(desk.pids.apps.xclock!)).toBe(true);
      } finally {
        rmSync(configFile(), { force: true });
      }
    });

    it('query answers countable questions from the desk', async () => {
      const r = await plain.call('query', { question: 'how many tabs are open?' });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toMatch(/\b5 tabs\b/);
    });

    it('do runs plain words through the planners; what closes waits for a yes', async () => {
      const sw = await plain.call('do', { text: 'switch to Four' });
      expect(sw.isError).toBeFalsy();
      expect(textOf(sw)).toBe('Switched to tab 4 "Four" (127.0.0.1)');
      await raw.waitFor(() => visible('Four'));

      const refused = await plain.call('do', { text: 'close the Two tab' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/Ask the user: "Close tab 2 "Two" \(127\.0\.0\.1\)\?" If they agree, call do again with the same arguments and confirm_token: "ct_/);
      expect(await raw.titles()).toContain('Two');
      // Meanwhile a tab before it closes: the held plan still closes "Two", not what is now at index 2.
      await raw.close(await targetOf('One'));
      const done = await plain.call('do', { text: 'close the Two tab', confirm_token: tokenOf(refused) });
      expect(done.isError).toBeFalsy();
      expect(textOf(done)).toBe('Closed 1 tab: tab 2 "Two" (127.0.0.1)');
      expect(await raw.titles()).toEqual(['Five', 'Four', 'Three']);

      const unclear = await plain.call('do', { text: 'frobnicate the zorblax' });
      expect(unclear.isError).toBeFalsy();
      expect(dataOf(unclear).status).toBe('clarification');
      expect(textOf(unclear)).toMatch(/^Nothing was done: DeskPilot asks: /);
    });
  });

  describe('apps and windows', () => {
    it('list_apps shows the monitors and the running apps with their windows', async () => {
      const r = await plain.call('list_apps');
      const text = textOf(r);
      expect(text).toMatch(/^Monitors \(\[left,top,right,bottom\]\):\nLEFT main,left bounds \[0,0,1920,1080\] work \[0,0,1920,1080\]\nRIGHT right bounds \[1920,0,3840,1080\]/);
      expect(text).toMatch(/\nXTerm: "/);
      expect(dataOf(r).monitors.map((m: { name: string }) => m.name)).toEqual(['LEFT', 'RIGHT']);
    });

    it('place_app: exact bounds, a half of a named monitor, centred W×H, a monitor — read back with xwininfo', async () => {
      const exact = await plain.call('place_app', { app_name: 'xterm', bounds: [2020, 100, 2820, 700] });
      expect(exact.isError).toBeFalsy();
      expectFrameNear(frameOf(env, xtermId), [2020, 100, 2820, 700]);

      const half = await plain.call('place_app', { app_name: 'XTerm', position: 'left_half', monitor: 'right' });
      expect(half.isError).toBeFalsy();
      expectFrameNear(frameOf(env, xtermId), [1920, 0, 2880, 1080]);

      // Centred on the monitor the window is on (RIGHT) when none is named.
      const centre = await plain.call('place_app', { app_name: 'XTerm', position: 'center', width: 600, height: 400 });
      expect(centre.isError).toBeFalsy();
      expectFrameNear(frameOf(env, xtermId), [2580, 340, 3180, 740]);

      // The protocol's other layouts pass straight through, on a monitor named by number too.
      const third = await plain.call('place_app', { app_name: 'XTerm', position: 'last_third', monitor: '2' });
      expect(third.isError).toBeFalsy();
      expectFrameNear(frameOf(env, xtermId), [3200, 0, 3840, 1080]);

      const before = frameOf(env, xtermId);
      const left = await plain.call('place_app', { app_name: 'XTerm', monitor: 'left' });
      expect(left.isError).toBeFalsy();
      expect(frameOf(env, xtermId)[0]).toBe(before[0] - 1920);
    });

    it('a bad argument is a clear error naming it, and nothing moves', async () => {
      const before = frameOf(env, xtermId);
      const short = await plain.call('place_app', { app_name: 'XTerm', bounds: [1, 2, 3] });
      expect(short.isError).toBe(true);
      expect(textOf(short)).toContain('must be an array of 4 integers [left, top, right, bottom] at bounds');
      const both = await plain.call('place_app', { app_name: 'XTerm', position: 'maximize', bounds: [0, 0, 800, 600] });
      expect(textOf(both)).toBe('Nothing was done: give position or bounds, not both.');
      const typo = await plain.call('place_app', { app_name: 'Xtrem', position: 'maximize' });
      expect(textOf(typo)).toBe('Nothing was done: app_name: no running app is named "Xtrem"; closest: "XTerm".');
      const big = await plain.call('place_app', { app_name: 'XTerm', position: 'center', width: 5000, height: 400 });
      expect(textOf(big)).toMatch(/^Nothing was done: 5000x400 does not fit on (LEFT|RIGHT) \(its work area is 1920x1080\)/);
      const off = await plain.call('place_app', { app_name: 'XTerm', bounds: [5000, 0, 5800, 600] });
      expect(textOf(off)).toBe('Nothing was done. bounds: [5000, 0, 5800, 600] lies entirely outside every monitor');
      expect(frameOf(env, xtermId)).toEqual(before);
    });

    it('focus_app raises the window; undo puts the last move back', async () => {
      await plain.call('place_app', { app_name: 'XTerm', bounds: [300, 300, 900, 800] });
      const placed = frameOf(env, xtermId);
      await plain.call('place_app', { app_name: 'XTerm', bounds: [2400, 400, 3000, 900] });
      // Undo may close tabs an action opened: it needs the yes (tests/hardening/mcp-undo-asks.test.ts).
      const u = await callConfirmed(plain, 'undo');
      expect(u.isError).toBeFalsy();
      expect(frameOf(env, xtermId)).toEqual(placed);
      const f = await plain.call('focus_app', { app_name: 'XTerm' });
      expect(f.isError).toBeFalsy();
      expect(activeWindow(env)).toBe(parseInt(xtermId, 16));
    });

    it('swap_apps, tile_apps and set_app_state act on the real windows; a bad state is refused naming it', async () => {
      const ctx = await runCli(['context', '--json', '--no-summaries'], { env });
      const xclockId = (ctx.json.running_apps as Array<{ pid: number; windows: Array<{ id: string }> }>).find((a) => a.pid === desk.pids.apps.xclock)!.windows[0]!.id;
      await plain.call('place_app', { app_name: 'XTerm', bounds: [100, 100, 700, 500] });
      await plain.call('place_app', { app_name: 'XClock', bounds: [2100, 200, 2400, 500] });
      const [xterm, xclock] = [frameOf(env, xtermId), frameOf(env, xclockId)];
      const swap = await plain.call('swap_apps', { app_names: ['XTerm', 'XClock'] });
      expect(swap.isError).toBeFalsy();
      // Each takes the other's place (sizes within each window's size hints).
      expect(frameOf(env, xtermId).slice(0, 2)).toEqual(xclock.slice(0, 2));
      expect(frameOf(env, xclockId).slice(0, 2)).toEqual(xterm.slice(0, 2));

      const tile = await plain.call('tile_apps', { app_names: ['XTerm', 'XClock'], monitor: 'right' });
      expect(tile.isError).toBeFalsy();
      expect(frameOf(env, xtermId).slice(0, 2)).toEqual([1920, 0]);
      expect(frameOf(env, xclockId).slice(0, 2)).toEqual([2880, 0]);

      const bad = await plain.call('set_app_state', { app_name: 'XTerm', state: 'maximised' });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain('state');
      expect(isHidden(env, xtermId)).toBe(false);
      const min = await plain.call('set_app_state', { app_name: 'XTerm', state: 'minimized' });
      expect(min.isError).toBeFalsy();
      expect(isHidden(env, xtermId)).toBe(true);
      const back = await plain.call('set_app_state', { app_name: 'XTerm', state: 'normal' });
      expect(back.isError).toBeFalsy();
      expect(isHidden(env, xtermId)).toBe(false);
    });

    it('open_recent opens only a path list_recent shows: another is refused naming the field, and nothing opens', async () => {
      const list = await plain.call('list_recent');
      expect(list.isError).toBeFalsy();
      const listed = [...dataOf(list).recent_files, ...dataOf(list).recent_projects].map((r: { path: string }) => r.path);
      expect(listed).not.toContain('/etc/hostname');
      const before = await runCli(['context', '--json', '--no-summaries'], { env });
      const r = await plain.call('open_recent', { path: '/etc/hostname' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('path: "/etc/hostname" is not one of the recent files or projects');
      const after = await runCli(['context', '--json', '--no-summaries'], { env });
      expect(after.json.running_apps.map((a: { name: string }) => a.name)).toEqual(before.json.running_apps.map((a: { name: string }) => a.name));
    });

    it('presets: save the layout, move away, apply it back; list shows it', async () => {
      await plain.call('place_app', { app_name: 'XTerm', position: 'right_half', monitor: 'left' });
      const saved = frameOf(env, xtermId);
      const save = await plain.call('save_preset', { name: 'mcp layout', apps: ['XTerm'] });
      expect(save.isError).toBeFalsy();
      expect(textOf(save)).toMatch(/^Saved preset "mcp layout": XTerm left \[0\.5,0,0\.5,(1|0\.99)\]$/);
      await plain.call('place_app', { app_name: 'XTerm', bounds: [2200, 200, 2800, 600] });
      const apply = await plain.call('apply_preset', { name: 'MCP Layout' });
      expect(apply.isError).toBeFalsy();
      expect(frameOf(env, xtermId)).toEqual(saved);
      expect(textOf(await plain.call('list_presets'))).toMatch(/^"mcp layout": XTerm left/);
      const ghost = await plain.call('save_preset', { name: 'ghosts', apps: ['Nope'] });
      expect(textOf(ghost)).toBe('Nothing was saved: not running, so their layout cannot be saved: Nope (list_apps shows the running apps).');
      const unknown = await plain.call('apply_preset', { name: 'nope' });
      expect(textOf(unknown)).toBe('Nothing was done. preset_name: no preset named "nope" (presets: "mcp layout")');
    });

    it('close_app asks through the client; accepted, the app quits', async () => {
      answer = 'accept';
      expect(processRunning(desk.pids.apps.xclock!)).toBe(true);
      const r = await asking.call('close_app', { app_name: 'XClock' });
      expect(r.isError).toBeFalsy();
      expect(asking.asked.at(-1)).toMatch(/^DeskPilot is about to:\n• quit XClock/);
      await waitFor('xclock to exit', () => !processRunning(desk.pids.apps.xclock!));
    });
  });

  it('the desktop resource reads as the snapshot, and a subscriber hears when tabs change', async () => {
    const { resources } = await plain.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['deskpilot://desktop']);
    const read = await plain.client.readResource({ uri: 'deskpilot://desktop' });
    expect((read.contents[0] as { text: string }).text).toMatch(/^Snapshot s\d+ \(taken /);

    let updated = 0;
    plain.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      if (n.params.uri === 'deskpilot://desktop') updated++;
    });
    await plain.client.subscribeResource({ uri: 'deskpilot://desktop' });
    await raw.open(desk.pages.url('page', { title: 'Noticed' }));
    await waitFor('a resources/updated notification', () => updated > 0);
    await plain.client.unsubscribeResource({ uri: 'deskpilot://desktop' });
    await expect(plain.client.subscribeResource({ uri: 'deskpilot://nothing' })).rejects.toThrow(/unknown resource deskpilot:\/\/nothing/);
  });

  it('without a sync server, a call naming a device is refused naming the field, and nothing opens here', async () => {
    const before = (await raw.pages()).length;
    const r = await plain.call('open_url', { url: 'https://example.org/', device: 'work laptop' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^device: no sync server is configured/);
    expect((await raw.pages()).length).toBe(before);
    const devices = await plain.call('list_devices');
    expect(devices.isError).toBe(true);
    expect(textOf(devices)).toContain('No sync server is configured');
  });
});
