import { describe, expect, it } from 'vitest';
import { watchedDesk } from './service-host';
import type { WiredEngine } from './wire-engine';

// watchedDesk's wiring, on a stand-in engine (what watching does to a real Chrome is in
// tests/service/live-tabs.test.ts; the web harness's UI tests run on a watched desk).

describe('watchedDesk (stand-in engine)', () => {
  it('watches the tabs from the start, and stops watching before the engine is disposed', async () => {
    const calls: string[] = [];
    const wired = {
      watchTabUse: () => {
        calls.push('watch');
        return () => calls.push('stop watching');
      },
      dispose: async () => void calls.push('dispose engine'),
    } as unknown as WiredEngine;
    const desk = watchedDesk(wired);
    expect(calls).toEqual(['watch']);
    await desk.close();
    expect(calls).toEqual(['watch', 'stop watching', 'dispose engine']);
  });
});
