import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAgentPages, type AgentPages } from '../agent-pages/serve';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';

// What the `deskpilot agent` end-to-end suites share: a real desktop with Chromium, the agent
// test pages, an independent raw CDP client, a config directory and the CLI's environment
// (LLM base URL set per test, pointing at that test's scripted server).

export interface AgentCliRig {
  desk: Desktop;
  pages: AgentPages;
  raw: RawCdp;
  /** The config directory (DESKPILOT_CONFIG_DIR); removed by stop. */
  dir: string;
  env: NodeJS.ProcessEnv;
  /** Leaves exactly these tabs open, opened in this order (the last in front); returns their ids. */
  onlyTabs(paths: string[]): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startAgentCliRig(name: string, config: (pages: AgentPages) => object): Promise<AgentCliRig> {
  const [desk, pages] = await Promise.all([startDesktop({ chrome: true }), startAgentPages()]);
  const raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), `deskpilot-${name}-`));
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config(pages)));
  const env: NodeJS.ProcessEnv = {
    ...desk.env,
    DESKPILOT_CONFIG_DIR: dir,
    DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl,
    DESKPILOT_LLM_MODEL: 'scripted-model',
    DESKPILOT_LLM_TIMEOUT_MS: '60000',
    DESKPILOT_AGENT_EXECUTOR_MODEL: 'scripted-executor',
  };
  return {
    desk,
    pages,
    raw,
    dir,
    env,
    async onlyTabs(paths) {
      const before = await raw.pages();
      const ids: string[] = [];
      for (const p of paths) ids.push(await raw.open(pages.url(p)));
      for (const p of before) await raw.close(p.targetId);
      return ids;
    },
    async stop() {
      await raw.dispose();
      await Promise.all([desk.stop(), pages.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
