import type { MonitorTarget } from '../protocol/window-layouts';
import type { Layout } from '../protocol/window-layouts';
import type { MonitorInfo } from '../protocol/context';
import type { ResolvedCommand } from '../protocol/prepared-batch';
import { height, width } from './geometry';

// The window commands in words, for plans, confirmations and results.

const QUARTERS: Partial<Record<Layout, string>> = {
  top_left: 'top-left quarter',
  top_right: 'top-right quarter',
  bottom_left: 'bottom-left quarter',
  bottom_right: 'bottom-right quarter',
  maximize: 'whole',
  almost_maximize: 'almost whole',
  center: 'centre',
};

/** "first third", "top-left quarter", "bottom center sixth", "whole". */
export const layoutWords = (layout: Layout): string => QUARTERS[layout] ?? layout.replace(/_/g, ' ').replace('two thirds', 'two-thirds');

/** How a place_app target reads: "the left monitor", "the next monitor (RIGHT)", "monitor 2 (RIGHT)". */
export function monitorWords(target: MonitorTarget | undefined, monitor: MonitorInfo | null): string {
  if (!target) return monitor ? monitor.name : 'its monitor';
  if (/^\d$/.test(target)) return `monitor ${target}${monitor ? ` (${monitor.name})` : ''}`;
  if (target === 'next' || target === 'previous') return `the ${target} monitor${monitor ? ` (${monitor.name})` : ''}`;
  return `the ${target} monitor`;
}

/** "800x600 at 2020,100": a frame asked for by its numbers ([left, top, right, bottom]), said by them. */
export const sizeAt = (r: readonly number[]) => `${width(r)}x${height(r)} at ${r[0]},${r[1]}`;

/** Where a resolved place_app puts the window, in words. */
export function placeWords(cmd: Extract<ResolvedCommand, { type: 'place_app' }>): string {
  const { bounds, layout, monitor } = cmd.command;
  if (bounds) return sizeAt(bounds);
  if (layout === 'larger' || layout === 'smaller') return `a ${layout} frame on ${cmd.monitor?.name ?? 'its monitor'}`;
  if (layout) return `the ${layoutWords(layout)} of ${cmd.monitor?.name ?? 'its monitor'}`;
  return monitorWords(monitor, cmd.monitor);
}

const list = (names: readonly string[]) => (names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

type WindowOp = Extract<ResolvedCommand, { type: 'swap_apps' | 'tile_apps' | 'set_app_state' }>;
export const isWindowOp = (cmd: ResolvedCommand): cmd is WindowOp => cmd.type === 'swap_apps' || cmd.type === 'tile_apps' || cmd.type === 'set_app_state';

export function windowOpSummary(cmd: WindowOp): string {
  switch (cmd.type) {
    case 'swap_apps':
      return `swap ${list(cmd.windows.map((w) => w.app))}`;
    case 'tile_apps':
      return `tile ${list(cmd.windows.map((w) => w.app))} side by side on ${cmd.monitor.name}`;
    case 'set_app_state':
      return cmd.command.state === 'minimized' ? `minimise ${cmd.app}` : cmd.command.state === 'fullscreen' ? `make ${cmd.app} full screen` : `restore ${cmd.app}`;
  }
}

export const windowOpTargets = (cmd: WindowOp): string[] => (cmd.type === 'set_app_state' ? [cmd.app] : cmd.windows.map((w) => w.app));
