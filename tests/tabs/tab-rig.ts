import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Engine } from '../../src/engine/engine';
import { loadConfig } from '../../src/platform/config/load-config';
import { wireEngine, type WiredEngine } from '../../src/compose/wire-engine';
import { startDesktop, type Desktop } from '../support/desktop';
import { RawCdp } from '../support/raw-cdp';

// What the tab manager's desktop tests share: a real desktop and Chromium (with or without the
// companion extension), DeskPilot's engine wired as the CLI wires it, a raw CDP observer, and a
// config dir of their own.

export interface TabRig {
  desk: Desktop;
  raw: RawCdp;
  wired: WiredEngine;
  engine: Engine;
  configDir: string;
  stop(): Promise<void>;
}

export async function startTabRig(extensions: string[] = []): Promise<TabRig> {
  const desk = await startDesktop({ extensions });
  const raw = await RawCdp.connect(desk.chrome!.browserWsUrl);
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-tabs-'));
  const env = { ...desk.env, DESKPILOT_CHROME_URL: desk.chrome!.browserWsUrl, DESKPILOT_CONFIG_DIR: configDir };
  const wired = await wireEngine(await loadConfig({}, env), { env });
  return {
    desk,
    raw,
    wired,
    engine: wired.engine,
    configDir,
    stop: async () => {
      await wired.dispose();
      await raw.dispose();
      await desk.stop();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
