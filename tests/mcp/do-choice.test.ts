import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { onlyTabs, tabVisible } from '../support/only-tabs';
import { RawCdp } from '../support/raw-cdp';
import { dataOf, stdioClient, textOf, type McpTestClient, tokenOf } from './mcp-client';

// Issue 26 item 3 in the MCP `do` tool: when DeskPilot asks back with numbered options, the
// assistant calls again with the same text and `choice` (the number or the user's words), and
// exactly the option offered runs. The SDK's own client spawns `deskpilot mcp` over stdio, on
// the real test desktop; effects are read back through a second CDP connection.

describeDesktop('deskpilot mcp: do answers its own question with choice', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let dir: string;
  let plain: McpTestClient;

  beforeAll(async () => {
    desk = await startDesktop({ chrome: true });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-do-choice-'));
    mkdirSync(path.join(dir, 'config'), { recursive: true });
    plain = await stdioClient({ ...desk.env, DESKPILOT_CONFIG_DIR: path.join(dir, 'config'), DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_LLM_MODEL: '' });
  });

  afterAll(async () => {
    await plain?.close();
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => onlyTabs(raw, desk, ['Reddit - front page', 'Hacker News', 'Reddit - r/node']));

  const visible = (title: string) => tabVisible(raw, title);

  it('asks with numbered options; choice 2 switches to the second, and the question is then answered', async () => {
    const asked = await plain.call('do', { text: 'switch to reddit' });
    expect(dataOf(asked).status).toBe('clarification');
    expect(dataOf(asked).choices).toEqual([expect.stringMatching(/^tab 1 "Reddit - front page"/), expect.stringMatching(/^tab 3 "Reddit - r\/node"/)]);
    expect(textOf(asked)).toMatch(/call do again with the same text and choice/);

    const done = await plain.call('do', { text: 'switch to reddit', choice: 2 });
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toBe('Switched to tab 3 "Reddit - r/node" (127.0.0.1)');
    await raw.waitFor(() => visible('Reddit - r/node'));

    const again = await plain.call('do', { text: 'switch to reddit', choice: 1 });
    expect(dataOf(again).status).toBe('expired');
  });

  it('the user\'s words pick the one option that holds them; words that fit several pick nothing', async () => {
    await plain.call('do', { text: 'switch to reddit' });
    const unclear = await plain.call('do', { text: 'switch to reddit', choice: 'reddit' });
    expect(textOf(unclear)).toMatch(/^Nothing was done: "reddit" fits choices 1 and 2; say its number\./);
    const done = await plain.call('do', { text: 'switch to reddit', choice: 'the front page one' });
    expect(textOf(done)).toBe('Switched to tab 1 "Reddit - front page" (127.0.0.1)');
    await raw.waitFor(() => visible('Reddit - front page'));
  });

  it('a chosen option that closes still waits for the yes, then closes exactly that tab', async () => {
    await plain.call('do', { text: 'close reddit' });
    const refused = await plain.call('do', { text: 'close reddit', choice: 2 });
    expect(dataOf(refused).status).toBe('needs_confirmation');
    expect(await raw.titles()).toEqual(['Hacker News', 'Reddit - front page', 'Reddit - r/node']);
    const done = await plain.call('do', { text: 'close reddit', choice: 2, confirm_token: tokenOf(refused) });
    expect(textOf(done)).toBe('Closed 1 tab: tab 3 "Reddit - r/node" (127.0.0.1)');
    expect(await raw.titles()).toEqual(['Hacker News', 'Reddit - front page']);
  });

  it('a choice that is no option is refused by the schema or named, and nothing runs', async () => {
    await plain.call('do', { text: 'switch to reddit' });
    const out = await plain.call('do', { text: 'switch to reddit', choice: 7 });
    expect(textOf(out)).toMatch(/^Nothing was done: there is no choice 7; say a number from 1 to 2\./);
    const bad = await plain.call('do', { text: 'switch to reddit', choice: 0 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/choice/);
  });
});
