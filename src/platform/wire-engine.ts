import path from 'node:path';
import { Engine } from '../engine/engine';
import type { ChromeBackend } from '../engine/ports';
import { createCdpChromeBackend } from './chrome/cdp-backend';
import type { Config } from './config/load-config';
import { loadDeviceId } from './storage/device-id';
import { HistoryFile } from './storage/history-file';

// The one place that decides which implementation serves each engine port on this
// platform; both composition roots (the CLI and the Electron main process) call it.

export interface WiredEngine {
  engine: Engine;
  chrome: ChromeBackend;
  dispose(): Promise<void>;
}

export async function wireEngine(config: Config): Promise<WiredEngine> {
  const chrome = createCdpChromeBackend({
    chromeUrl: config.chromeUrl.value,
    allowRemote: config.allowRemoteChrome.value,
    profileDir: config.chromeProfileDir,
  });
  const engine = new Engine({
    chrome: async () => chrome,
    // The window backend, app catalog and presets arrive with the windows issue;
    // until then app commands fail resolution with the reason below.
    windows: null,
    apps: { list: async () => [] },
    presets: { names: async () => [] },
    history: new HistoryFile(path.join(config.configDir.value, 'history.jsonl')),
    deviceId: await loadDeviceId(config.configDir.value),
  });
  return { engine, chrome, dispose: () => chrome.dispose() };
}
