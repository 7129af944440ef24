import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { stdioClient, type McpTestClient, tokenOf } from '../mcp/mcp-client';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';
import { COMPANION_DIR, CompanionView } from './companion-view';

// The tab manager's MCP tools, through the real `deskpilot mcp` over stdio and the SDK's own
// client, on a real Chromium with the companion extension; effects seen through the
// extension's own view over a separate connection.

const dataOf = (r: CallToolResult) => (r.structuredContent ?? JSON.parse((r.content[1] as { text: string } | undefined)?.text ?? '{}')) as any;
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describeDesktop('the tab manager over MCP', () => {
  let desk: Desktop;
  let raw: RawCdp;
  let view: CompanionView;
  let mcp: McpTestClient;
  let dir: string;

  beforeAll(async () => {
    desk = await startDesktop({ extensions: [COMPANION_DIR] });
    raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
    view = await CompanionView.connect(desk.chrome!.browserWsUrl);
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-mcp-tabs-'));
    mcp = await stdioClient({ ...desk.env, DESKPILOT_CONFIG_DIR: path.join(dir, 'config'), DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl });
  });

  afterAll(async () => {
    await mcp?.close();
    await view?.close();
    await raw?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    const before = await raw.pages();
    for (const t of ['One', 'Two', 'Three']) await raw.open(desk.pages.url('page', { title: t, text: `über ${t.toLowerCase()}` }));
    for (const p of before) await raw.close(p.targetId);
    await view.waitForTab('Three', 'seen by the extension', () => true);
  });

  it('search_tabs by page text hands out a snapshot id whose indices pin_tabs then uses', async () => {
    const found = await mcp.call('search_tabs', { query: 'über two', page_text: true });
    expect(found.isError).toBeFalsy();
    const data = dataOf(found);
    expect(data.tabs.map((t: { title: string }) => t.title)).toEqual(['Two']);
    expect(data.tabs[0].excerpt).toContain('über two');
    const pinned = await mcp.call('pin_tabs', { snapshot_id: data.snapshot_id, tab_indices: [data.tabs[0].i], pinned: true });
    expect(textOf(pinned)).toMatch(/^Pinned tab \d "Two"/);
    expect((await view.byTitle('Two')).pinned).toBe(true);
    expect((await view.byTitle('One')).pinned).toBe(false);
  });

  it('count_tabs_by_domain counts; close_duplicate_tabs waits for a yes it cannot ask, then closes', async () => {
    expect(textOf(await mcp.call('count_tabs_by_domain'))).toBe('3 tabs on 1 site: 127.0.0.1 3');
    await raw.open(desk.pages.url('page', { title: 'One', text: 'über one' }));
    const refused = await mcp.call('close_duplicate_tabs');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Not done yet: this needs the user's yes\. It would:\n• close duplicate tab \d "One"/);
    expect((await view.tabs()).filter((t) => t.title === 'One')).toHaveLength(2);
    expect((await mcp.call('close_duplicate_tabs', { confirm_token: tokenOf(refused) })).isError).toBeFalsy();
    expect((await view.tabs()).filter((t) => t.title === 'One')).toHaveLength(1);
  });
});
