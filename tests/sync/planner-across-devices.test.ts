import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SyncConnection } from '../../src/platform/sync/sync-connection';
import { describeDesktop } from '../support/describe-desktop';
import type { Desktop } from '../support/desktop';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';
import type { RawCdp } from '../support/raw-cdp';
import { waitFor } from '../support/wait-for';
import { startTwoDevices, stopTwoDevices, type TwoDevices } from './sync-rig';

// `deskpilot run` on A with the LLM planner (the scripted OpenAI-compatible server on
// 127.0.0.1) and sync set up: the model's context carries B's published desk under B's name,
// its answer may name B as the `device`, and the batch then runs on B — two real desktops,
// B's warm service running the device worker, effects read in each Chromium directly.

const A = 'work laptop';
const B = 'home desktop';

describeDesktop('the planner sees every device', () => {
  let rig: TwoDevices;
  let deskB: Desktop;
  let rawA: RawCdp;
  let rawB: RawCdp;
  let obs: SyncConnection;
  let llm: FakeOpenAi;
  let llmEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    [rig, llm] = await Promise.all([startTwoDevices(A, B), startFakeOpenAi()]);
    ({ deskB, rawA, rawB, obs } = rig);
    llmEnv = { DESKPILOT_LLM_BASE_URL: llm.baseURL, DESKPILOT_LLM_MODEL: 'scripted-model', DESKPILOT_LLM_TIMEOUT_MS: '20000' };
    // These tests are about planning here and sending there: B's user lets A close things on B
    // without a yes on B (otherwise a close waits there for one: tests/sync/remote-consent*.test.ts).
    const allowed = await rig.b.cli(['devices', 'allow', A, '--without-asking']);
    if (allowed.code !== 0) throw new Error(`devices allow failed: ${allowed.stderr}`);
    await rig.b.startService();
  }, 300_000);

  afterAll(async () => {
    await llm?.stop();
    await stopTwoDevices(rig ?? {});
  });

  const idB = () => obs.doc.devices().find((r) => r.name === B)!.id;
  const urls = async (raw: RawCdp) => (await raw.pages()).map((p) => p.url);
  /** B's published index of the tab with this address, once B has published it with its title. */
  async function publishedIndex(url: string, title: string): Promise<number> {
    let index = 0;
    await waitFor(`B to publish ${url}`, () => {
      index = obs.doc.readSnapshot(idB()).snapshot?.tabs.find((t) => t.url === url && t.title === title)?.index ?? 0;
      return index > 0;
    });
    return index;
  }
  const userMessage = (i: number) => llm.requests[i]!.messages!.find((m) => m.role === 'user')!.content;

  it('"close my figma tab on the other machine": the model sees B\'s desk tagged by device, names B, and the tab closes on B only', async () => {
    const url = deskB.pages.url('page', { title: 'Figma Board' });
    await Promise.all([rawB.open(url), rawA.open(url)]);
    const index = await publishedIndex(url, 'Figma Board');
    const before = llm.requests.length;
    llm.script({ json: { commands: [{ type: 'close_tab', tab_indices: [index] }], needs_clarification: false, clarification_reason: null, device: B } });
    const r = await rig.a.cli(['run', '--planner', 'llm', '--yes', 'close my figma tab on the other machine'], { env: llmEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`On "${B}"`);
    const context = userMessage(before);
    expect(context).toContain(`THIS COMPUTER is "${A}"`);
    expect(context).toContain(`=== device "${B}" (online) ===`);
    expect(context.slice(context.indexOf(`=== device "${B}"`))).toContain('Figma Board');
    await rawB.waitFor(async () => !(await urls(rawB)).includes(url), 'the tab on B to close');
    expect(await urls(rawA)).toContain(url);
  });

  it('without --yes the sender is asked (nothing sent); a device nobody has is refused by name, repaired once', async () => {
    const url = deskB.pages.url('page', { title: 'Kept Page' });
    await rawB.open(url);
    const index = await publishedIndex(url, 'Kept Page');
    llm.script({ json: { commands: [{ type: 'close_tab', tab_indices: [index] }], needs_clarification: false, clarification_reason: null, device: B } });
    const asked = await rig.a.cli(['run', '--planner', 'llm', 'close the kept page on my other computer'], { env: llmEnv });
    expect(asked.code, asked.stderr).toBe(3);
    expect(asked.stderr).toContain(`on "${B}"`);
    expect(obs.doc.rowIds()).toEqual([]);

    const before = llm.requests.length;
    llm.script(
      { json: { commands: [{ type: 'close_tab', tab_indices: [index] }], needs_clarification: false, clarification_reason: null, device: 'kitchen tablet' } },
      { json: { commands: [], needs_clarification: true, clarification_reason: 'Which device do you mean?', device: null } },
    );
    const wrong = await rig.a.cli(['run', '--planner', 'llm', '--yes', 'close the kept page on the kitchen tablet'], { env: llmEnv });
    expect(wrong.code, wrong.stderr).toBe(3);
    expect(userMessage(before + 1)).toContain(`device: no device called "kitchen tablet" (the devices are "${A}" (this computer), "${B}")`);
    expect(await urls(rawB)).toContain(url);
  });

  it('"which machine has the zebra tab?" is a question answered seeing every device\'s desk', async () => {
    const url = deskB.pages.url('page', { title: 'Zebra Stripes' });
    await rawB.open(url);
    await publishedIndex(url, 'Zebra Stripes');
    const before = llm.requests.length;
    llm.script(
      { json: { commands: [{ type: 'query', question: 'which machine has the zebra tab?' }], needs_clarification: false, clarification_reason: null, device: null } },
      { content: `The zebra tab is open on "${B}".` },
    );
    const r = await rig.a.cli(['run', '--planner', 'llm', 'which machine has the zebra tab?'], { env: llmEnv });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`open on "${B}"`);
    // The answering request (the second) saw B's tab under B's name.
    const answering = userMessage(before + 1);
    expect(answering.slice(answering.indexOf(`=== device "${B}"`))).toContain('Zebra Stripes');
  });
});
