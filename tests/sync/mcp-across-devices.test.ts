import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SyncConnection } from '../../src/platform/sync/sync-connection';
import { dataOf, stdioClient, textOf, type McpTestClient, tokenOf } from '../mcp/mcp-client';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import { describeDesktop } from '../support/describe-desktop';
import type { Desktop } from '../support/desktop';
import type { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { onlineWithDesk, startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

// `deskpilot mcp` on A, driven by the MCP SDK's own Client, acting on B through the sync
// server: two test desktops (two Xvfb displays, two Chromiums, two config dirs), B's warm
// service running the device worker. Every effect is read in each Chromium directly.

const A = 'work laptop';
const B = 'home desktop';

describeDesktop('the MCP server acting on another device', () => {
  let rig: TwoDevices;
  let deskB: Desktop;
  let rawA: RawCdp;
  let rawB: RawCdp;
  let obs: SyncConnection;
  /** Cannot ask the user: destructive calls need the confirm_token of their first answer. */
  let plain: McpTestClient;
  /** Asks through elicitation, and the test says yes. */
  let asking: McpTestClient;
  /** Asks and says yes, with DeskPilot's LLM planner on the scripted OpenAI-compatible server. */
  let withLlm: McpTestClient;
  let llm: FakeOpenAi;

  beforeAll(async () => {
    rig = await startTwoDevices(A, B);
    ({ deskB, rawA, rawB, obs } = rig);
    // These tests are about planning here and sending there: B's user lets A close things on B
    // without a yes on B (otherwise a close waits there for one: tests/sync/remote-consent*.test.ts).
    const allowed = await rig.b.cli(['devices', 'allow', A, '--without-asking']);
    if (allowed.code !== 0) throw new Error(`devices allow failed: ${allowed.stderr}`);
    await rig.b.startService();
    await onlineWithDesk(rig.obs, B);
    plain = await stdioClient(rig.a.env());
    asking = await stdioClient(rig.a.env(), { elicit: async () => ({ action: 'accept' }) });
    llm = await startFakeOpenAi();
    withLlm = await stdioClient(rig.a.env({ DESKPILOT_LLM_BASE_URL: llm.baseURL, DESKPILOT_LLM_MODEL: 'scripted-model', DESKPILOT_LLM_TIMEOUT_MS: '20000' }), {
      elicit: async () => ({ action: 'accept' }),
    });
  }, 300_000);

  afterAll(async () => {
    await plain?.close();
    await asking?.close();
    await withLlm?.close();
    await llm?.stop();
    await stopTwoDevices(rig ?? {});
  });

  const urls = async (raw: RawCdp) => (await raw.pages()).map((p) => p.url);
  /** Command rows that would run something (a fresh publish asked for before preparing may still be passing). */
  const runRows = () => obs.doc.rowIds().filter((id) => {
    const r = obs.doc.readRow(id);
    return r?.ok && r.row.action === 'run';
  });
  /** B has published this tab under its title (B's service may learn a title a moment after the page loads). */
  const publishedTitled = (title: string) =>
    waitFor(`B to publish a tab titled ${title}`, () => {
      const id = obs.doc.devices().find((r) => r.name === B)!.id;
      return obs.doc.readSnapshot(id).snapshot?.tabs.some((t) => t.title === title) ?? false;
    });

  it('list_devices names both computers, B online, A as this one', async () => {
    const r = await plain.call('list_devices');
    expect(r.isError, textOf(r)).toBeFalsy();
    const devices = dataOf(r).devices as Array<{ name: string; online: boolean; this_device: boolean; platform: string; last_seen: string }>;
    expect(devices.map((d) => d.name).sort()).toEqual([B, A].sort());
    expect(devices.find((d) => d.name === B)).toMatchObject({ online: true, this_device: false, platform: 'linux' });
    expect(devices.find((d) => d.name === A)).toMatchObject({ this_device: true });
    expect(textOf(r)).toContain(`"${B}" — online`);
  });

  it('open_url with device: B opens the tab in B\'s Chromium, and A\'s stays as it was', async () => {
    const url = deskB.pages.url('page', { title: 'Opened through MCP' });
    const before = await urls(rawA);
    const r = await plain.call('open_url', { url, device: B });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toContain(`On "${B}"`);
    expect(dataOf(r).device.name).toBe(B);
    await rawB.waitFor(async () => (await urls(rawB)).includes(url), 'the tab on B');
    expect(await urls(rawA)).toEqual(before);
  });

  it('list_tabs and the resource show B\'s desk; B\'s snapshot_id goes with device: B only', async () => {
    const url = deskB.pages.url('page', { title: 'Only On B' });
    await rawB.open(url);
    await publishedTitled('Only On B');
    const listed = await plain.call('list_tabs', { device: B, urls: true });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(textOf(listed)).toContain(`On "${B}"`);
    expect(dataOf(listed).device.name).toBe(B);
    const sid = dataOf(listed).snapshot_id as string;
    const index = (dataOf(listed).tabs as Array<{ i: number; title: string; url: string }>).find((t) => t.url === url && t.title === 'Only On B')!.i;
    // The same index with B's snapshot id but no device: refused, naming the field to pass.
    const wrong = await plain.call('switch_tab', { snapshot_id: sid, tab_index: index });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain(`pass device: "${B}"`);

    const res = await plain.client.readResource({ uri: `deskpilot://devices/${encodeURIComponent(B)}/desktop` });
    const text = res.contents.map((c) => ('text' in c ? c.text : '')).join('\n');
    expect(text).toContain(`On "${B}"`);
    expect(text).toContain('Only On B');
    const here = await plain.client.readResource({ uri: 'deskpilot://desktop' });
    expect(here.contents.map((c) => ('text' in c ? c.text : '')).join('\n')).not.toContain('Only On B');
  });

  it('close_tabs with device: B asks here (naming B), closes B\'s tab and leaves the same page open on A', async () => {
    const url = deskB.pages.url('page', { title: 'Close Me Remotely' });
    await Promise.all([rawB.open(url), rawA.open(url)]);
    await publishedTitled('Close Me Remotely');
    const listed = await asking.call('search_tabs', { query: 'Close Me Remotely', device: B, ids: true });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    const tab = (dataOf(listed).tabs as Array<{ id: string }>).map((t) => ({ tab_id: t.id }))[0]!;

    // A client that cannot ask: refused with the question naming B, nothing sent.
    const refused = await plain.call('close_tabs', { tab_ids: [tab.tab_id], device: B });
    expect(refused.isError).toBe(true);
    expect(dataOf(refused).status).toBe('needs_confirmation');
    expect(textOf(refused)).toContain(`On ${B}`);
    expect(runRows()).toEqual([]);
    expect(await urls(rawB)).toContain(url);

    const r = await asking.call('close_tabs', { tab_ids: [tab.tab_id], device: B });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(asking.asked.at(-1)).toContain(`on "${B}"`);
    expect(asking.asked.at(-1)).toContain('Close Me Remotely');
    await rawB.waitFor(async () => !(await urls(rawB)).includes(url), 'the tab on B to close');
    expect(await urls(rawA)).toContain(url);
  });

  it('do with device: B plans here against B\'s desk and runs it there with its confirm_token', async () => {
    const url = deskB.pages.url('page', { title: 'Zebra Notes' });
    await rawB.open(url);
    await publishedTitled('Zebra Notes');
    const first = await plain.call('do', { text: 'close the zebra notes tab', device: B });
    expect(first.isError).toBe(true);
    expect(dataOf(first).status).toBe('needs_confirmation');
    expect(textOf(first)).toContain('Zebra Notes');
    // The held plan is B's: its token with the same words for this computer runs nothing (and is used up).
    const here = await plain.call('do', { text: 'close the zebra notes tab', confirm_token: tokenOf(first) });
    expect(here.isError).toBe(true);
    expect(textOf(here)).toContain('that confirm_token was given for other arguments');
    expect(await urls(rawB)).toContain(url);

    const again = await plain.call('do', { text: 'close the zebra notes tab', device: B });
    const done = await plain.call('do', { text: 'close the zebra notes tab', device: B, confirm_token: tokenOf(again) });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(dataOf(done).device.name).toBe(B);
    await rawB.waitFor(async () => !(await urls(rawB)).includes(url), 'the tab on B to close');
  });

  it('do without a device: the LLM sees B\'s desk under B\'s name, names B, and the tab closes on B after the user\'s yes', async () => {
    const url = deskB.pages.url('page', { title: 'Otter Pictures' });
    await Promise.all([rawB.open(url), rawA.open(url)]);
    await publishedTitled('Otter Pictures');
    const id = obs.doc.devices().find((r) => r.name === B)!.id;
    const index = obs.doc.readSnapshot(id).snapshot!.tabs.find((t) => t.url === url)!.index;
    // Planning never waits for the sync server: the session must be open (listing the devices waits for it).
    expect((await withLlm.call('list_devices')).isError).toBeFalsy();
    const before = llm.requests.length;
    llm.script({ json: { commands: [{ type: 'close_tab', tab_indices: [index] }], needs_clarification: false, clarification_reason: null, device: B } });
    const r = await withLlm.call('do', { text: 'get rid of the otter thing over on my other box' });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(dataOf(r).device?.name, `${textOf(r)} / LLM requests: ${llm.requests.length - before}`).toBe(B);
    expect(withLlm.asked.at(-1)).toContain(`on "${B}"`);
    const context = llm.requests[before]!.messages!.find((m) => m.role === 'user')!.content;
    expect(context.slice(context.indexOf(`=== device "${B}"`))).toContain('Otter Pictures');
    await rawB.waitFor(async () => !(await urls(rawB)).includes(url), 'the tab on B to close');
    expect(await urls(rawA)).toContain(url);
  });

  it('a device nobody paired is refused, naming the field and the paired devices; nothing is written', async () => {
    await waitFor('earlier rows to be gone', () => obs.doc.rowIds().length === 0);
    const r = await plain.call('open_url', { url: 'https://example.org/', device: 'kitchen tablet' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^device: no device called "kitchen tablet" \(paired devices: .*"home desktop"/);
    expect(obs.doc.rowIds()).toEqual([]);
  });
});
