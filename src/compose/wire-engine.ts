import path from 'node:path';
import { Engine } from '../engine/engine';
import type { WiredEngine } from '../app/wired';
import type { RawMonitor } from '../engine/ports';
import { chooseWindowBackend } from './window-backend-choice';
import { windowBackendFor } from './window-backends';
import { createAppCatalog } from '../platform/apps/create-app-catalog';
import { createRecentPlaces } from '../platform/apps/recent/recent-places';
import { catalogReusedFor, LIST_REUSE_MS, recentReusedFor } from '../platform/apps/reused-for';
import { createCdpChromeBackend } from '../platform/chrome/cdp-backend';
import type { Config, LlmConfig } from '../platform/config/load-config';
import { createLocalPlanner } from '../engine/local-planner';
import type { LlmOptions } from '../platform/llm/llm-options';
import { TurnFileStore } from '../platform/storage/turn-file';
import { loadDeviceId } from '../platform/storage/device-id';
import { HistoryFile } from '../platform/storage/history-file';
import { PresetFileStore } from '../platform/storage/preset-file';
import { TabCollectionFileStore } from '../platform/storage/tab-collection-file';
import { UndoFileStore } from '../platform/storage/undo-file';

// The one place that decides which implementation serves each engine port on this
// platform; both composition roots (the CLI and the Electron main process) call it.

export interface WireOptions {
  /** Displays from Electron's screen module (the app passes it; macOS's addon has none). */
  monitors?: () => Promise<RawMonitor[]>;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The bundled macOS/Windows window helper (the app passes electron-vite's ?modulePath). */
  nwmWorkerPath?: string;
  /** An API key from the app's secret store, used when neither env nor config.json has one. */
  llmApiKey?: string | null;
}


export async function wireEngine(config: Config, opts: WireOptions = {}): Promise<WiredEngine> {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const dir = config.configDir.value;
  const chrome = createCdpChromeBackend({
    chromeUrl: config.chromeUrl.value,
    allowRemote: config.allowRemoteChrome.value,
    profileDir: config.chromeProfileDir,
    // A private (0700) folder of its own, in the cache folder: everything in it can be rebuilt.
    runCacheDir: config.state.chromeRun,
  });
  const choice = chooseWindowBackend(platform, env, config.windowsBackend);
  const windows = await windowBackendFor(choice, { ...opts, env, platform });
  const llm = config.llm ? { ...llmOptions(config.llm), apiKey: config.llm.apiKey.value ?? opts.llmApiKey ?? undefined } : null;
  // A long-lived process snapshots often; these two lists are read from many files (reused-for.ts).
  const apps = catalogReusedFor(LIST_REUSE_MS, createAppCatalog(platform, env));
  // The LLM's modules (its strict-mode schemas, the transport) only when one is configured.
  const llmModules = llm ? await import('../platform/llm/llm-planner') : null;
  const engine = new Engine({
    planners: {
      local: createLocalPlanner(),
      llm: llm && llmModules ? llmModules.createLlmPlanner(llm) : null,
      llmMissingReason: 'no LLM is configured: set DESKPILOT_LLM_MODEL (and DESKPILOT_LLM_BASE_URL for Ollama or LM Studio), or use --planner local',
    },
    answerer: llm && llmModules ? llmModules.createLlmAnswerer(llm) : null,
    turns: new TurnFileStore(config.state.turns),
    chrome: async () => chrome,
    windows: windows ? async () => windows : null,
    windowsUnavailableReason: choice.reason,
    apps,
    recent: recentReusedFor(LIST_REUSE_MS, createRecentPlaces({ platform, env, catalog: apps })),
    presets: new PresetFileStore(path.join(dir, 'presets.json')),
    tabCollections: new TabCollectionFileStore(path.join(dir, 'tab-collections.json')),
    undo: new UndoFileStore(config.state.undo),
    history: new HistoryFile(config.state.history),
    deviceId: await loadDeviceId(dir),
    ownEndpoints: config.sync ? [{ url: config.sync.url.value, what: "DeskPilot's sync server" }] : [],
  });
  return {
    engine,
    chrome,
    plannerDescription: llm ? { kind: 'llm', description: `${llm.model} at ${llm.baseURL}` } : { kind: 'local', description: 'offline matcher' },
    watchTabUse: () => chrome.watchTabs(),
    onTabsChanged: (fn) => chrome.onTabsChanged(fn),
    dispose: async () => {
      await Promise.all([chrome.dispose(), windows?.dispose()]);
    },
  };
}

function llmOptions(c: LlmConfig): LlmOptions {
  return { baseURL: c.baseURL.value, model: c.model.value, apiKey: c.apiKey.value, mode: c.mode.value, timeoutMs: c.timeoutMs.value };
}

export type { WiredEngine };
