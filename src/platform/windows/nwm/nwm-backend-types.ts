// Shared by the macOS and Windows backends.
import type { RawMonitor, WindowBackend } from '../../../engine/ports';
import type { NwmWorkerClient } from './nwm-worker-client';

export interface NwmWindowBackend extends WindowBackend {
  /** The running window helper's pid, null when none runs (diagnostics). */
  helperPid(): number | null;
}

export interface NwmBackendConfig {
  client: NwmWorkerClient;
  monitors?: () => Promise<RawMonitor[]>;
  /** Closing goes through PowerShell or osascript, which take seconds to start. */
  closeTimeoutMs: number;
}
