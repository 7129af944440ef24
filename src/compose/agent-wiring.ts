import type { AgentOptions } from '../engine/agent';
import type { AgentBrowser } from '../engine/agent-ports';
import type { AgentWiring } from '../app/wired';
import { createCdpAgentBrowser } from '../platform/chrome/agent';
import { connectChrome } from '../platform/chrome/connect';
import { defaultUserDataDirs } from '../platform/chrome/discover';
import { secretValues } from '../platform/config/agent-config';
import type { Config } from '../platform/config/load-config';
import { createLlmAgentModels } from '../platform/llm/agent-models';
import type { LlmOptions } from '../platform/llm/llm-options';

// Agent mode's wiring, shared by both composition roots (the CLI's `deskpilot agent` and the
// app's agent service): the planner and executor models from the LLM configuration, the run's
// options from config.json's `agent` section, and the agent browser on the same Chrome as the
// rest of DeskPilot. Nothing here runs the agent; src/engine/agent does.

/** What to say when agent mode is asked for and no LLM is configured. */
export const NO_LLM_FOR_AGENT =
  'agent mode needs an LLM: set DESKPILOT_LLM_MODEL (and DESKPILOT_LLM_BASE_URL for Ollama or LM Studio), or llm.model in config.json.';

export interface AgentWiringOptions {
  /** Where secret values are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** An API key from the app's secret store, used when neither env nor config.json has one. */
  llmApiKey?: string | null;
  /** Overrides (the CLI's --planner-model, --executor-model, --max-steps). */
  plannerModel?: string;
  executorModel?: string;
  maxSteps?: number;
  /** Another way to reach the browser (tests); default: connectAgentBrowser. */
  connectBrowser?: (config: Config) => Promise<AgentBrowser>;
}


/** Null when no LLM is configured: agent mode cannot run without one. */
export function wireAgent(config: Config, opts: AgentWiringOptions = {}): AgentWiring | null {
  const llm = config.llm;
  if (!llm) return null;
  const env = opts.env ?? process.env;
  const base: Omit<LlmOptions, 'model'> = {
    baseURL: llm.baseURL.value,
    apiKey: llm.apiKey.value ?? opts.llmApiKey ?? undefined,
    mode: llm.mode.value,
    timeoutMs: llm.timeoutMs.value,
  };
  const plannerModel = opts.plannerModel ?? config.agent.plannerModel.value ?? llm.model.value;
  const executorModel = opts.executorModel ?? config.agent.executorModel.value ?? llm.model.value;
  const models = createLlmAgentModels({ planner: { ...base, model: plannerModel }, executor: { ...base, model: executorModel } });
  const secrets = secretValues(config.agent.secrets, env);
  const maxSteps = opts.maxSteps ?? config.agent.maxSteps.value;
  const options: AgentOptions = {
    ...(maxSteps ? { maxSteps } : {}),
    ...(config.agent.tabLimit.value ? { tabLimit: config.agent.tabLimit.value } : {}),
    ...(config.agent.snapshotChars.value ? { snapshotChars: config.agent.snapshotChars.value } : {}),
    ...(config.agent.maskPii.value !== undefined ? { maskPii: config.agent.maskPii.value } : {}),
    screenshots: config.agent.screenshots.value,
    allowDomains: config.agent.allowDomains,
    denyDomains: config.agent.denyDomains,
    secrets: secrets.values,
  };
  const connect = opts.connectBrowser ?? connectAgentBrowser;
  return {
    models,
    plannerModel,
    executorModel,
    tools: config.agent.tools,
    options,
    missingSecrets: secrets.missing,
    connectBrowser: () => connect(config),
  };
}

/** The same Chrome as the rest of DeskPilot: the configured endpoint, else DevToolsActivePort discovery. */
export async function connectAgentBrowser(config: Config): Promise<AgentBrowser> {
  const found = await connectChrome({
    chromeUrl: config.chromeUrl.value,
    allowRemote: config.allowRemoteChrome.value,
    userDataDirs: [config.chromeProfileDir, ...defaultUserDataDirs()],
  });
  const browserWsUrl = found.browserWsUrl;
  await found.conn.close().catch(() => undefined);
  return createCdpAgentBrowser({ browserWsUrl, endpointNames: [config.chromeUrl.value] });
}

export type { AgentWiring };
