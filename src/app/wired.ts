import type { AgentOptions } from '../engine/agent';
import type { AgentBrowser, AgentModels } from '../engine/agent-ports';
import type { Engine } from '../engine/engine';
import type { ChromeBackend } from '../engine/ports';
import type { AgentTool } from '../protocol/agent';

// What the composition root (src/compose) hands the application services: they run on these
// and never build them, so the services stay free of concrete backends.

export interface WiredEngine {
  engine: Engine;
  chrome: ChromeBackend;
  /** Which planner answers when the offline matcher is unsure, for status lines. */
  plannerDescription: { kind: 'local' | 'llm'; description: string };
  /**
   * The warm service's tab list: kept current from Chrome's events (a snapshot reads memory),
   * and when each tab is used recorded, so tab ages work without the companion extension (the
   * warm service calls it for its lifetime); returns the function that stops it.
   */
  watchTabUse(): () => void;
  /** `fn` after each change of the tabs while watched (watchTabUse); returns the function that stops it. */
  onTabsChanged(fn: () => void): () => void;
  dispose(): Promise<void>;
}

export interface AgentWiring {
  models: AgentModels;
  plannerModel: string;
  executorModel: string;
  /** Saved Tools (named sites) the agent may open by name. */
  tools: AgentTool[];
  options: AgentOptions;
  /** Secrets named in config.json whose environment variable is unset, as "NAME (VARIABLE)". */
  missingSecrets: string[];
  /** The agent browser on the same Chrome as the rest of DeskPilot (dispose it after the run). */
  connectBrowser(): Promise<AgentBrowser>;
}
