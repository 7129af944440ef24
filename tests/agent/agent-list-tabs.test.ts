import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAgent } from '../../src/engine/agent';
import { scriptedModels, tool } from '../agent-loop/scripted';
import { startAgentRig, type AgentRig } from '../support/agent-rig';
import { describeDesktop } from '../support/describe-desktop';
import { RawCdp } from '../support/raw-cdp';

// list_tabs on real Chromium, through the agent loop with scripted models: the agent's own tabs by
// number, the person's other tabs read-only, with PII masked and tabs on refused domains only counted.

describeDesktop('agent list_tabs (real Chromium, scripted models)', () => {
  let rig: AgentRig | undefined;
  let raw: RawCdp;

  beforeAll(async () => {
    rig = await startAgentRig();
    raw = await RawCdp.connect(rig.desk.chrome!.browserWsUrl);
  });
  afterAll(async () => {
    await raw?.dispose();
    await rig?.stop();
  });

  it("lists the target tabs and the person's other tabs, read-only, masked and filtered by the domain rules", async () => {
    const { pages, browser } = rig!;
    // The person's tabs: an ordinary page, a mail tab whose title holds an address, and a page on a denied domain.
    await raw.open(pages.url('/nav-a.html'));
    await raw.open(pages.url('/tabs-mail.html'));
    await raw.open(`${pages.crossBase}/nav-b.html`);
    const models = scriptedModels(
      [{ steps: ['Open the shop search page', 'List the open tabs', 'Say which tabs are open'], message: 'I will list the tabs.' }],
      [tool({ action: 'open_tab', url: pages.url('/search.html') }), tool({ action: 'list_tabs' }), tool({ action: 'done', answer: 'Listed.' })],
    );
    const r = await runAgent({
      goal: 'which tabs are open?',
      browser,
      models,
      options: { denyDomains: ['localhost'] },
      approve: async () => ({ approved: true }),
      confirm: async () => true,
    });
    expect(r.status).toBe('done');
    const listed = r.steps[1]!;
    expect(listed).toMatchObject({ ok: true, command: { action: 'list_tabs' } });
    const others = (await raw.pages()).length - 1;
    expect(listed.output).toContain(`Listed 1 target tab and ${others} other tabs.\n<page_data source="list_tabs">\n`);
    expect(listed.output).toContain(`Target tabs (switch_tab / close_tab by number):\n1 (current) "Shop search" ${pages.url('/search.html')}\n`);
    expect(listed.output).toContain("The user's other tabs (read-only: not target tabs; open a URL in a new tab to work with it):\n");
    expect(listed.output).toContain(`- "Page A" ${pages.url('/nav-a.html')}\n`);
    expect(listed.output).toContain(`- "Inbox (3) - [email] - Mail" ${pages.url('/tabs-mail.html')}\n`);
    expect(listed.output).not.toContain('ann.lee');
    // The denied tab is counted, never named.
    expect(listed.output).toContain('- 1 more on domains the agent may not visit (not shown)\n</page_data>');
    expect(listed.output).not.toContain('Page B');
    expect(listed.output).not.toContain('localhost');
    // The executor read the same listing on its next turn.
    expect(models.nextRequests[2]!.history[1]!.output).toBe(listed.output);
  });
});
