import { describe, expect, it } from 'vitest';
import type { Command } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { fixtureTab } from '../test-snapshot';
import { readsAcrossDevices, splitEveryDevice } from './every-device-words';
import { planLocally } from './local-planner';

// Issue 29.4: "on all my computers" / "on every device" make a read span every device; the rest
// of the words is planned as usual, and only reads are answered that way.

const ok = { ok: true, message: 'ok' };
const snap: ContextSnapshot = {
  taken_at: '2026-11-28T22:00:00.000Z',
  monitors: [],
  running_apps: [],
  installed_apps: [],
  tabs: [fixtureTab(1, 'github.com'), fixtureTab(2, 'reddit.com')],
  presets: [],
  sources: { windows: ok, chrome: ok, presets: ok },
};
const commandsOf = (text: string) => (planLocally({ text, context: snap, turns: [] }).envelope as { commands: Command[] }).commands;

describe('"on all my computers"', () => {
  it.each([
    ['list my tabs on all my computers', 'list my tabs'],
    ['show my tabs on every device', 'show my tabs'],
    ['what tabs do I have open across all my devices?', 'what tabs do I have open?'],
    ['how many tabs do I have per site on all of my machines', 'how many tabs do I have per site'],
    ['find kitten tabs on all computers', 'find kitten tabs'],
    ['list tabs across my laptops', 'list tabs'],
    ['list tabs everywhere', 'list tabs'],
  ])('"%s" reads every device: the rest is "%s"', (text, rest) => {
    expect(splitEveryDevice(text)).toBe(rest);
  });

  it.each(['close youtube on the work laptop', 'list tabs on my laptop', 'put xterm on the left monitor', 'list tabs'])('"%s" names no every-device read', (text) => {
    expect(splitEveryDevice(text)).toBeNull();
  });

  it('the rest plans to reads the devices\' desks answer; page text, ages and acting do not', () => {
    expect(readsAcrossDevices(commandsOf(splitEveryDevice('list my tabs on all my computers')!))).toBe(true);
    expect(readsAcrossDevices(commandsOf(splitEveryDevice('how many tabs do I have per site on every device?')!))).toBe(true);
    expect(readsAcrossDevices([{ type: 'search_tabs', query: 'kitten' } as Command])).toBe(true);
    expect(readsAcrossDevices([{ type: 'search_tabs', query: 'kitten', page_text: true } as Command])).toBe(false);
    expect(readsAcrossDevices([{ type: 'search_tabs', oldest: 3 } as Command])).toBe(false);
    expect(readsAcrossDevices([{ type: 'close_tab', tab_indices: [1] }])).toBe(false);
    expect(readsAcrossDevices([])).toBe(false);
  });
});
