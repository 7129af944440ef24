import CDP from 'chrome-remote-interface';
import { createCdpAgentBrowser, type CdpAgentBrowser } from '../../src/platform/chrome/agent';
import { startAgentPages, type AgentPages } from '../agent-pages/serve';
import { startDesktop, type Desktop } from './desktop';
import { WAIT_MS } from './wait-for';

/** A real desktop, the agent test pages, DeskPilot's agent browser and an independent raw CDP client. */
export interface AgentRig {
  desk: Desktop;
  pages: AgentPages;
  raw: CDP.Client;
  browser: CdpAgentBrowser;
  stop(): Promise<void>;
}

export async function startAgentRig(): Promise<AgentRig> {
  const desk = await startDesktop();
  const pages = await startAgentPages();
  const raw = await CDP({ target: desk.chrome!.browserWsUrl, local: true });
  // The pages' own bounds are generous: a 3,000-element page takes seconds to collect when the
  // machine is busy, and a bound that bites would be reported as "the page is not responding".
  const browser = createCdpAgentBrowser({ browserWsUrl: desk.chrome!.browserWsUrl, evalTimeoutMs: WAIT_MS, loadTimeoutMs: WAIT_MS, settleMaxMs: WAIT_MS / 2 });
  return {
    desk,
    pages,
    raw,
    browser,
    stop: async () => {
      await browser.dispose();
      await raw.close().catch(() => undefined);
      await pages.stop();
      await desk.stop();
    },
  };
}
