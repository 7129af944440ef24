import { describe, expect, it } from 'vitest';
import { fixtureTab } from '../engine/test-snapshot';
import type { ContextSnapshot } from '../protocol/context';
import { deskIndexOf, hasPinCommand, itemCommands } from './desk-index';

const ok = { ok: true, message: 'ok' };
const snap: ContextSnapshot = {
  taken_at: '2025-01-01T00:00:00.000Z',
  monitors: [
    { id: '1', name: 'LEFT', roles: ['main', 'left'], bounds: [0, 0, 1920, 1080], work_area: [0, 0, 1920, 1080], primary: true, scale: 1 },
    { id: '2', name: 'RIGHT', roles: ['right'], bounds: [1920, 0, 3840, 1080], work_area: [1920, 0, 3840, 1080], primary: false, scale: 1 },
  ],
  running_apps: [{ name: 'XTerm', pid: 1, windows: [{ id: 'w1', title: 'shell', bounds: [0, 0, 10, 10], monitor: 'LEFT', focused: true, minimized: false }] }],
  installed_apps: [{ name: 'XTerm' }, { name: 'Gimp' }],
  tabs: [fixtureTab(1, 'reddit.com'), fixtureTab(2, 'github.com', 2)],
  presets: ['code'],
  sources: { windows: ok, chrome: { ok: false, message: 'Chrome is not connected.' }, presets: ok },
};

describe('the launcher desk index', () => {
  it('lists tabs, running apps first then installed ones not running, presets, monitors and what is down', () => {
    const index = deskIndexOf('d1', snap, { planner: 'local', confirm: { close_tab: true, close_app: false } });
    expect(index.tabs.map((t) => [t.index, t.domain, t.active, t.window])).toEqual([
      [1, 'reddit.com', true, 1],
      [2, 'github.com', false, 2],
    ]);
    expect(index.apps.map((a) => [a.name, a.running, a.windows.length])).toEqual([
      ['XTerm', true, 1],
      ['Gimp', false, 0],
    ]);
    expect(index).toMatchObject({ id: 'd1', presets: ['code'], planner: 'local', confirm: { close_tab: true, close_app: false }, problems: ['Chrome is not connected.'] });
    expect(index.monitors).toEqual([
      { name: 'LEFT', roles: ['main', 'left'] },
      { name: 'RIGHT', roles: ['right'] },
    ]);
    expect(index.actions.pin).toBe(hasPinCommand());
  });

  it('an item action is a protocol command, remembered in words', () => {
    expect(itemCommands({ item: { kind: 'tab', index: 2 }, action: 'open' }, snap)).toEqual({ text: 'switch to tab 2 "Tab 2"', commands: [{ type: 'switch_tab', tab_index: 2 }] });
    expect(itemCommands({ item: { kind: 'tab', index: 1 }, action: 'close' }, snap).commands).toEqual([{ type: 'close_tab', tab_indices: [1] }]);
    expect(itemCommands({ item: { kind: 'app', name: 'XTerm' }, action: 'move_right' }, snap)).toEqual({
      text: 'move XTerm to the right monitor',
      commands: [{ type: 'place_app', app_name: 'XTerm', monitor: 'right' }],
    });
    expect(itemCommands({ item: { kind: 'app', name: 'Gimp' }, action: 'open' }, snap).commands).toEqual([{ type: 'focus_app', app_name: 'Gimp' }]);
    expect(itemCommands({ item: { kind: 'preset', name: 'code' }, action: 'open' }, snap).commands).toEqual([{ type: 'activate_preset', preset_name: 'code' }]);
  });

  it('refuses what an item cannot do, and a tab that is not in the snapshot, by name', () => {
    expect(() => itemCommands({ item: { kind: 'tab', index: 9 }, action: 'open' }, snap)).toThrow('tab 9 is no longer in the list; type again');
    expect(() => itemCommands({ item: { kind: 'tab', index: 1 }, action: 'move_left' }, snap)).toThrow('a tab cannot be moved to a monitor on its own');
    expect(() => itemCommands({ item: { kind: 'preset', name: 'code' }, action: 'close' }, snap)).toThrow('a preset can only be applied');
  });
});
