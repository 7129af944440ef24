import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { wireEngine, type WiredEngine } from '../../src/compose/wire-engine';
import { Engine, type EngineDeps } from '../../src/engine/engine';
import type { WindowBackend } from '../../src/engine/ports';
import { loadConfig } from '../../src/platform/config/load-config';
import { describeDesktop } from '../support/describe-desktop';
import { startDesktop, type Desktop } from '../support/desktop';
import { waitFor } from '../support/wait-for';
import { frameOf, wmWindows } from '../support/x-observe';

// Issue 28: how many times one exec asks the window backend for the window and monitor lists.
// The real X11 backend on the real test desktop, behind a proxy that counts each call. One
// place_app through exec() reads the desk once: the read the snapshot made is the one the
// placement starts from (same exec, nothing awaited on a person in between). A batch prepared
// and run separately (confirmed by a person, or sent over a socket) still reads the desk again
// when it runs, so a window closed in between is refused.

type Counts = Record<keyof WindowBackend, number>;

function counting(backend: WindowBackend): { backend: WindowBackend; counts: Counts; reset: () => void } {
  const counts = {} as Counts;
  const reset = () => {
    for (const k of Object.keys(counts) as Array<keyof WindowBackend>) delete counts[k];
  };
  const proxy = new Proxy(backend, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const k = prop as keyof WindowBackend;
        counts[k] = (counts[k] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { backend: proxy, counts, reset };
}

describeDesktop('window backend round trips per exec (real X11 desktop, counting proxy)', () => {
  let desk: Desktop;
  let dir: string;
  let wired: WiredEngine;
  let engine: Engine;
  let id: string;
  let count: ReturnType<typeof counting>;

  beforeAll(async () => {
    desk = await startDesktop({ apps: ['xterm'], chrome: false });
    id = `0x${wmWindows(desk.env).find((w) => w.pid === desk.pids.apps.xterm)!.id.toString(16)}`;
    dir = mkdtempSync(path.join(os.tmpdir(), 'deskpilot-round-trips-'));
    const env = { ...desk.env, DESKPILOT_CONFIG_DIR: dir, DESKPILOT_LLM_MODEL: '' };
    wired = await wireEngine(await loadConfig({}, env), { env });
    // The wired engine's own ports, with its window backend behind the counting proxy.
    const deps = (wired.engine as unknown as { deps: EngineDeps }).deps;
    count = counting(await deps.windows!());
    engine = new Engine({ ...deps, windows: async () => count.backend });
  });

  afterAll(async () => {
    await wired?.dispose();
    await desk?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('one place_app through exec lists the windows once and the monitors once, and the window moves', async () => {
    count.reset();
    const report = await engine.exec({ type: 'place_app', app_name: 'XTerm', bounds: [100, 100, 700, 500] });
    expect(report.status).toBe('done');
    expect(count.counts.listWindows).toBe(1);
    expect(count.counts.listMonitors).toBe(1);
    // Moved, read back through X, not through DeskPilot.
    await waitFor('the xterm at 100,100', () => frameOf(desk.env, id)[0] === 100 && frameOf(desk.env, id)[1] === 100);
  });

  it('a batch of two placements reads the desk again for the second (the first changed it)', async () => {
    count.reset();
    const report = await engine.exec([
      { type: 'place_app', app_name: 'XTerm', bounds: [200, 200, 800, 600] },
      { type: 'place_app', app_name: 'XTerm', layout: 'right_half' },
    ]);
    expect(report.status).toBe('done');
    expect(count.counts.listWindows).toBe(2);
    expect(count.counts.listMonitors).toBe(2);
  });

  it('prepare then run (a confirmed batch) reads the desk again when it runs', async () => {
    const prepared = await engine.prepare({ type: 'place_app', app_name: 'XTerm', bounds: [300, 300, 900, 700] });
    expect(prepared.ok).toBe(true);
    count.reset();
    const report = await engine.run(prepared.ok ? prepared.batch : null);
    expect(report.status).toBe('done');
    expect(count.counts.listWindows).toBe(1);
    expect(count.counts.listMonitors).toBe(1);
  });
});
