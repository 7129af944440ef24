// The shapes every part of the configuration shares: what the command line passes, and a
// value that remembers where it came from. Their own file, below load-config and the parts
// it assembles (agent-config, sync-config), so none of those imports another in a circle.

export interface ConfigFlags {
  configDir?: string;
  chromeUrl?: string;
  allowRemoteChrome?: boolean;
  /** Run the engine in this process even when a DeskPilot service is running (--no-service). */
  noService?: boolean;
  /** The sync server (--sync-url). */
  syncUrl?: string;
}

export type Origin = 'flag' | 'env' | 'file' | 'default';
export interface Setting<T> {
  value: T;
  from: Origin;
}

export interface LlmConfig {
  baseURL: Setting<string>;
  model: Setting<string>;
  apiKey: Setting<string | undefined>;
  mode: Setting<'strict' | 'json_object'>;
  timeoutMs: Setting<number>;
}
