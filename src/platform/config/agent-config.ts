import { z } from 'zod';
import type { AgentTool } from '../../protocol/agent';
import type { LlmConfig, Origin, Setting } from './setting';

// Agent mode's settings: the `agent` section of config.json, and the two model overrides in
// the environment. Planner and executor default to the configured LLM model.

const text = (what: string) => z.string({ error: 'must be a string' }).trim().min(1, { error: `must not be empty (${what})` });

export const AgentConfigFile = z.strictObject({
  planner_model: text('a model name').optional().describe('Model that writes the plan (default: llm.model).'),
  executor_model: text('a model name').optional().describe('Model that turns each step into a command (default: llm.model).'),
  max_steps: z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(500, { error: 'must be at most 500' }).optional(),
  tab_limit: z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(20, { error: 'must be at most 20' }).optional(),
  snapshot_chars: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1000, { error: 'must be at least 1000' })
    .max(200_000, { error: 'must be at most 200000' })
    .optional()
    .describe('Size budget of one page snapshot sent to the model (default 12000 characters).'),
  mask_pii: z.boolean({ error: 'must be true or false' }).optional().describe('Mask emails, card and phone numbers in field values (default true).'),
  screenshots: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .describe('Send the planner a downscaled screenshot of the tab the run starts on (vision models only; default false).'),
  allow_domains: z.array(text('a domain such as example.com'), { error: 'must be a list of domains' }).optional().describe('When set, the agent visits only these domains.'),
  deny_domains: z.array(text('a domain such as example.com'), { error: 'must be a list of domains' }).optional().describe('The agent never visits these domains.'),
  tools: z
    .array(z.strictObject({ name: text('a tool name').max(200), url: text('a URL').max(8192) }), { error: 'must be a list of {"name", "url"}' })
    .optional()
    .describe('Saved Tools: named sites the agent opens with open_tool.'),
  secrets: z
    .record(
      z.string().regex(/^[A-Za-z0-9_.-]+$/, { error: 'secret names use letters, digits, _ . -' }),
      z.string({ error: 'must be the name of an environment variable' }).trim().min(1, { error: 'must be the name of an environment variable' }),
    )
    .optional()
    .describe('Secret name → environment variable holding its value; the model sees only {{SECRET:NAME}}.'),
});
export type AgentConfigFile = z.infer<typeof AgentConfigFile>;

export interface AgentConfig {
  /** Undefined only when no LLM is configured. */
  plannerModel: Setting<string | undefined>;
  executorModel: Setting<string | undefined>;
  maxSteps: Setting<number | undefined>;
  tabLimit: Setting<number | undefined>;
  snapshotChars: Setting<number | undefined>;
  maskPii: Setting<boolean | undefined>;
  /** Screenshots for the planner (env DESKPILOT_AGENT_SCREENSHOTS, then agent.screenshots; default false). */
  screenshots: Setting<boolean>;
  allowDomains: string[];
  denyDomains: string[];
  tools: AgentTool[];
  /** Secret name → the environment variable that holds its value (read when a run starts). */
  secrets: Record<string, string>;
}

/** "1"/"true"/"yes"/"on" or "0"/"false"/"no"/"off"; unset or empty: undefined; anything else: the reason it is not a switch. */
function envSwitch(v: string | undefined): boolean | undefined | { error: string } {
  if (v === undefined || v.trim() === '') return undefined;
  const w = v.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(w)) return true;
  if (['0', 'false', 'no', 'off'].includes(w)) return false;
  return { error: `must be 1 or 0 (true/false, yes/no, on/off), not ${JSON.stringify(v.slice(0, 40))}` };
}

/** `fail` throws the configuration error (a bad DESKPILOT_AGENT_SCREENSHOTS), named by its variable. */
export function agentConfig(env: NodeJS.ProcessEnv, file: AgentConfigFile | undefined, llm: LlmConfig | null, fail: (message: string) => never = (m) => {
  throw new Error(m);
}): AgentConfig {
  const model = (envValue: string | undefined, fileValue: string | undefined): Setting<string | undefined> => {
    if (envValue) return { value: envValue, from: 'env' };
    if (fileValue) return { value: fileValue, from: 'file' };
    return llm ? { value: llm.model.value, from: llm.model.from } : { value: undefined, from: 'default' };
  };
  const fromFile = <T>(v: T | undefined): Setting<T | undefined> => ({ value: v, from: (v === undefined ? 'default' : 'file') as Origin });
  return {
    plannerModel: model(env.DESKPILOT_AGENT_PLANNER_MODEL || undefined, file?.planner_model),
    executorModel: model(env.DESKPILOT_AGENT_EXECUTOR_MODEL || undefined, file?.executor_model),
    maxSteps: fromFile(file?.max_steps),
    tabLimit: fromFile(file?.tab_limit),
    snapshotChars: fromFile(file?.snapshot_chars),
    maskPii: fromFile(file?.mask_pii),
    screenshots: screenshotsSetting(env, file, fail),
    allowDomains: file?.allow_domains ?? [],
    denyDomains: file?.deny_domains ?? [],
    tools: file?.tools ?? [],
    secrets: file?.secrets ?? {},
  };
}

function screenshotsSetting(env: NodeJS.ProcessEnv, file: AgentConfigFile | undefined, fail: (message: string) => never): Setting<boolean> {
  const fromEnv = envSwitch(env.DESKPILOT_AGENT_SCREENSHOTS);
  if (typeof fromEnv === 'object') return fail(`DESKPILOT_AGENT_SCREENSHOTS: ${fromEnv.error}`);
  if (fromEnv !== undefined) return { value: fromEnv, from: 'env' };
  if (file?.screenshots !== undefined) return { value: file.screenshots, from: 'file' };
  return { value: false, from: 'default' };
}

/** The secrets' values from the environment; names whose variable is unset are reported, not guessed. */
export function secretValues(secrets: Record<string, string>, env: NodeJS.ProcessEnv): { values: Record<string, string>; missing: string[] } {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const [name, variable] of Object.entries(secrets)) {
    const v = env[variable];
    if (v) values[name] = v;
    else missing.push(`${name} (${variable})`);
  }
  return { values, missing };
}
