import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import { resolveBatch } from '../resolve';
import { planLocally } from './local-planner';
import { threeMonitors, twoMonitors } from './test-fixtures';

// Window layouts in words (the offline planner): named regions, monitors by number, position
// and order, swapping, tiling, minimising, restoring and a true full-screen mode.

function commands(text: string, snap: ContextSnapshot = twoMonitors()) {
  const env = planLocally({ text, context: snap, turns: [] }).envelope as Envelope;
  if (env.needs_clarification) return env.clarification_reason;
  expect(resolveBatch(env.commands, snap).ok).toBe(true);
  return env.commands;
}

/** LEFT above LAPTOP, as a laptop under an external screen. */
const stacked = (): ContextSnapshot => ({
  ...twoMonitors(),
  monitors: [
    { id: 'L', name: 'LAPTOP', roles: ['main', 'right', 'bottom'], bounds: [0, 0, 1728, 1117], work_area: [0, 38, 1728, 1117], primary: true, scale: 2 },
    { id: 'E', name: 'EXTERNAL', roles: ['left', 'top'], bounds: [-416, -1440, 2144, 0], work_area: [-416, -1440, 2144, 0], primary: false, scale: 1 },
  ],
  running_apps: [
    { name: 'Slack', pid: 2, windows: [{ id: 's', title: 'Slack', bounds: [100, 100, 900, 700], monitor: 'LAPTOP', focused: false, minimized: false }] },
  ],
});

describe('named regions (Rectangle\'s layouts)', () => {
  it.each([
    ['slack left third', { layout: 'first_third' }],
    ['put slack in the middle third', { layout: 'center_third' }],
    ['slack on the right two thirds', { layout: 'last_two_thirds' }],
    ['move slack to the upper left corner', { layout: 'top_left' }],
    ['slack bottom-right quarter', { layout: 'bottom_right' }],
    ['slack top middle sixth', { layout: 'top_center_sixth' }],
    ['nearly maximize slack', { layout: 'almost_maximize' }],
    ['make slack a bit bigger', { layout: 'larger' }],
    ['shrink slack', { layout: 'smaller' }],
    ['slack left third of the right monitor', { layout: 'first_third', monitor: 'right' }],
  ])('%s', (text, fields) => {
    expect(commands(text)).toEqual([{ type: 'place_app', app_name: 'Slack', ...fields }]);
  });
});

describe('monitors by number, position and order', () => {
  it('by number and by next/previous', () => {
    expect(commands('slack to monitor 2')).toEqual([{ type: 'place_app', app_name: 'Slack', monitor: '2' }]);
    expect(commands('move slack to screen two')).toEqual([{ type: 'place_app', app_name: 'Slack', monitor: '2' }]);
    expect(commands('slack to the next display')).toEqual([{ type: 'place_app', app_name: 'Slack', monitor: 'next' }]);
    expect(commands('slack to monitor 3')).toBe('There is no monitor 3 (2 monitors are connected).');
  });

  it('top and bottom on a stacked layout; a number for a monitor without a role', () => {
    expect(commands('put slack on the top monitor', stacked())).toEqual([{ type: 'place_app', app_name: 'Slack', monitor: 'top' }]);
    expect(commands('slack on the upper screen', stacked())).toEqual([{ type: 'place_app', app_name: 'Slack', monitor: 'top' }]);
    expect(commands('put slack on the top monitor')).toBe('No "top" monitor is connected.');
    // Three monitors: the middle one has the "main" role; "the big one" here, by area.
    expect(commands('terminal to the biggest screen', threeMonitors())).toEqual([{ type: 'place_app', app_name: 'Terminal', monitor: 'main' }]);
  });
});

describe('several windows and window states', () => {
  it('swaps and tiles running apps, in the order named', () => {
    expect(commands('swap slack and the terminal')).toEqual([{ type: 'swap_apps', app_names: ['Slack', 'Terminal'] }]);
    expect(commands('switch cursor with slack')).toEqual([{ type: 'swap_apps', app_names: ['Cursor', 'Slack'] }]);
    expect(commands('tile slack, terminal and cursor')).toEqual([{ type: 'tile_apps', app_names: ['Slack', 'Terminal', 'Cursor'] }]);
    expect(commands('put slack and cursor side by side on the left screen')).toEqual([{ type: 'tile_apps', app_names: ['Slack', 'Cursor'], monitor: 'left' }]);
    // Not running, or one app: a question, never a guess.
    expect(commands('swap slack and notion')).toBe('Notion is not running.');
    expect(commands('swap slack')).toMatch(/^Swap it with which app\?/);
    // "switch to" stays a switch.
    expect(commands('switch to slack')).toEqual([{ type: 'focus_app', app_name: 'Slack' }]);
  });

  it('minimises, restores and enters or leaves a true full-screen mode, "mode" said or not (issue 26)', () => {
    expect(commands('minimize slack')).toEqual([{ type: 'set_app_state', app_name: 'Slack', state: 'minimized' }]);
    expect(commands('hide the terminal')).toEqual([{ type: 'set_app_state', app_name: 'Terminal', state: 'minimized' }]);
    expect(commands('unminimize slack')).toEqual([{ type: 'set_app_state', app_name: 'Slack', state: 'normal' }]);
    expect(commands('put cursor in full screen mode')).toEqual([{ type: 'set_app_state', app_name: 'Cursor', state: 'fullscreen' }]);
    expect(commands('exit fullscreen on cursor')).toEqual([{ type: 'set_app_state', app_name: 'Cursor', state: 'normal' }]);
    expect(commands('slack full screen')).toEqual([{ type: 'set_app_state', app_name: 'Slack', state: 'fullscreen' }]);
    expect(commands('fullscreen cursor')).toEqual([{ type: 'set_app_state', app_name: 'Cursor', state: 'fullscreen' }]);
    expect(commands('cursor out of full screen mode')).toEqual([{ type: 'set_app_state', app_name: 'Cursor', state: 'normal' }]);
    // "maximise" is still the layout: the window fills the work area with its title bar.
    expect(commands('maximise slack')).toEqual([{ type: 'place_app', app_name: 'Slack', bounds: [0, 32, 1920, 1080] }]);
  });
});
