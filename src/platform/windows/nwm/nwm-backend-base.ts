// What the macOS and Windows backends do the same way: talk to the one helper process.
import type { NwmBackendConfig } from './nwm-backend-types';
import { processAlive } from './process-alive';
import { parseHandle } from './window-handle';

export abstract class NwmBackendBase {
  constructor(protected readonly config: NwmBackendConfig) {}

  async close(id: string): Promise<void> {
    await this.config.client.request('close', { handle: parseHandle(id) }, this.config.closeTimeoutMs);
  }

  processAlive(pid: number): Promise<boolean> {
    return processAlive(pid);
  }

  helperPid(): number | null {
    return this.config.client.pid();
  }

  dispose(): Promise<void> {
    return this.config.client.dispose();
  }
}
