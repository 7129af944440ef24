import { loadConfig, type Config, type ConfigFlags } from '../platform/config/load-config';
import { wireEngine, type WiredEngine } from './wire-engine';

// The CLI's composition root: configuration from flags/env/file, then the shared wiring.
export interface Composition extends WiredEngine {
  config: Config;
}

export async function compose(flags: ConfigFlags): Promise<Composition> {
  const config = await loadConfig(flags);
  return { config, ...(await wireEngine(config)) };
}
