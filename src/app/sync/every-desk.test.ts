import { describe, expect, it } from 'vitest';
import { fixtureTab } from '../../engine/test-snapshot';
import type { ContextSnapshot } from '../../protocol/context';
import type { DeviceView } from '../../protocol/sync';
import { readEveryDesk, readingLine, searchEveryDesk, sitesOnEveryDesk, windowsOnEveryDesk } from './every-desk';

const ok = { ok: true, message: 'ok' };
const NOW = Date.parse('2026-11-28T22:00:00Z');

const desk = (tabs: ContextSnapshot['tabs'], chrome = ok): ContextSnapshot => ({
  taken_at: '2026-11-28T21:00:00.000Z',
  monitors: [],
  running_apps: [{ name: 'XTerm', pid: 1, windows: [{ id: '0x1', title: 'shell', bounds: [0, 0, 10, 10], monitor: null, focused: true, minimized: false }] }],
  installed_apps: [],
  tabs,
  presets: [],
  sources: { windows: ok, chrome, presets: ok },
});

const view = (name: string, o: Partial<DeviceView> & { last_seen?: number; removed_at?: number } = {}): DeviceView => ({
  device: { v: 1, id: `id-${name.replace(/\W/g, '')}-0000`, name, platform: 'linux', version: 't', last_seen: o.last_seen ?? NOW, ...(o.removed_at ? { removed_at: o.removed_at } : {}) },
  online: o.online ?? true,
  this_device: o.this_device ?? false,
  snapshot: o.snapshot === undefined ? null : o.snapshot,
  problem: o.problem ?? null,
});

describe('reading every desk at once', () => {
  const views = [
    view('work laptop', { this_device: true }),
    view('home desktop', { online: false, last_seen: NOW - 3 * 3_600_000, snapshot: desk([fixtureTab(1, 'github.com'), fixtureTab(2, 'reddit.com')]) }),
    view('old tower', { removed_at: NOW - 1, snapshot: desk([fixtureTab(1, 'secret.example')]) }),
    view('pi', { snapshot: null, problem: 'it has published nothing yet' }),
    view('studio', { snapshot: desk([fixtureTab(1, 'github.com')], { ok: false, message: 'Chrome is not running' }) }),
  ];
  const readings = readEveryDesk(desk([fixtureTab(1, 'github.com')]), views, NOW);

  it('this desk first, live; an offline device stale as of when it was last seen; a removed device left out', () => {
    expect(readings.map((r) => [r.device, r.this_device, r.stale, r.as_of])).toEqual([
      ['work laptop', true, false, NOW],
      ['home desktop', false, true, NOW - 3 * 3_600_000],
      ['pi', false, false, NOW],
      ['studio', false, false, NOW],
    ]);
    expect(readings.map((r) => readingLine(r, NOW, 'chrome'))).toEqual([
      '"work laptop" (this computer): 1 tab, now',
      '"home desktop": 2 tabs, offline — as it was 3 h ago, it may have changed since',
      '"pi": nothing to list — it has published nothing yet',
      '"studio": nothing to list — Chrome unavailable: Chrome is not running',
    ]);
  });

  it('tabs, sites and windows are tagged with their device; a desk whose Chrome is down lists no tabs but its windows', () => {
    expect(searchEveryDesk(readings, 'GITHUB').map((t) => t.device)).toEqual(['work laptop', 'home desktop']);
    expect(sitesOnEveryDesk(readings)).toEqual([
      { site: 'github.com', n: 2, devices: { 'work laptop': 1, 'home desktop': 1 } },
      { site: 'reddit.com', n: 1, devices: { 'home desktop': 1 } },
    ]);
    expect(windowsOnEveryDesk(readings).map((w) => w.device)).toEqual(['work laptop', 'home desktop', 'studio']);
  });

  it('without sync, this desk alone under a plain name', () => {
    expect(readEveryDesk(desk([]), null, NOW).map((r) => r.device)).toEqual(['this computer']);
  });
});
