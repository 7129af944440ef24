import { MONITOR_TARGETS, type MonitorTarget } from '../../protocol/window-layouts';
import type { ContextSnapshot, MonitorInfo } from '../../protocol/context';
import { targetMonitor } from '../monitor-roles';
import { monitorByRole, roleFor } from './placement';
import type { MonitorWord } from './position';
import { ask, CONFIDENCE, type ClauseResult } from './result';

// Which connected monitor a word names. left/right/main are the protocol's own roles; the
// others are found from the layout: "the other one" (of two), "the middle one" (of three),
// "the laptop screen" (a built-in panel by its name), "the big one" (largest by area).

/** `among`: the question is which of these monitors (each can be offered as a choice). */
export type MonitorPick = { monitor: MonitorInfo } | { result: ClauseResult; among?: MonitorInfo[] };

const LAPTOP_NAME = /built-?in|retina|color lcd|edp|lvds|dsi|internal|laptop/i;
const area = (m: MonitorInfo) => (m.bounds[2] - m.bounds[0]) * (m.bounds[3] - m.bounds[1]);

const question = (snap: ContextSnapshot) =>
  ask(`Which monitor: ${snap.monitors.map((m) => `${m.name} (${m.roles.join('/') || 'no role'})`).join(', ')}?`, CONFIDENCE.ambiguous);

/** Asks which monitor; the choices are `among` (those the word could mean), else every one. */
const which = (snap: ContextSnapshot, among: readonly MonitorInfo[] = snap.monitors): { result: ClauseResult; among: MonitorInfo[] } => ({
  result: question(snap),
  among: [...(among.length ? among : snap.monitors)],
});

/** `current`: the monitor the window is on now, for "the other one". */
export function pickMonitor(word: MonitorWord, snap: ContextSnapshot, current: MonitorInfo | null): MonitorPick {
  const monitors = snap.monitors;
  if (monitors.length === 0) return { result: ask('No monitors are reported.', CONFIDENCE.unavailable) };
  switch (word) {
    case 'left':
    case 'right':
    case 'main': {
      const m = monitorByRole(snap, word);
      return m ? { monitor: m } : { result: ask(`No "${word}" monitor is connected.`, CONFIDENCE.noMatch) };
    }
    case 'other': {
      if (monitors.length === 1) return { result: ask('There is only one monitor; which position do you mean?', CONFIDENCE.noMatch) };
      // "The other one" is not the one the window is on.
      if (monitors.length > 2 || !current) return which(snap, monitors.filter((m) => m !== current));
      return { monitor: monitors.find((m) => m !== current)! };
    }
    case 'second': {
      const others = monitors.filter((m) => !m.primary);
      return others.length === 1 ? { monitor: others[0]! } : which(snap, others);
    }
    case 'middle': {
      const byX = [...monitors].sort((a, b) => a.bounds[0] - b.bounds[0]);
      return byX.length >= 3 && byX.length % 2 === 1 ? { monitor: byX[(byX.length - 1) / 2]! } : which(snap);
    }
    case 'laptop': {
      const named = monitors.filter((m) => LAPTOP_NAME.test(m.name));
      return named.length === 1 ? { monitor: named[0]! } : which(snap, named);
    }
    case 'top':
    case 'bottom':
    case 'next':
    case 'previous':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8': {
      // The protocol's own targets: the system finds the monitor as it does when the command runs.
      const m = targetMonitor(monitors, word, current);
      return typeof m === 'string' ? { result: ask(`${m[0]!.toUpperCase()}${m.slice(1)}.`, CONFIDENCE.noMatch) } : { monitor: m };
    }
    case 'portrait': {
      // Taller than wide: a monitor turned on its side.
      const tall = monitors.filter((m) => m.bounds[3] - m.bounds[1] > m.bounds[2] - m.bounds[0]);
      return tall.length === 1 ? { monitor: tall[0]! } : tall.length ? which(snap, tall) : { result: ask('No monitor is in portrait (taller than wide).', CONFIDENCE.noMatch) };
    }
    case 'big':
    case 'small': {
      if (monitors.length === 1) return { monitor: monitors[0]! };
      const sorted = [...monitors].sort((a, b) => (word === 'big' ? area(b) - area(a) : area(a) - area(b)));
      return area(sorted[0]!) !== area(sorted[1]!) ? { monitor: sorted[0]! } : which(snap, sorted.filter((m) => area(m) === area(sorted[0]!)));
    }
  }
}

/** How place_app.monitor names this monitor: the word said when the protocol has it ("next", "2", "top"), else a role, else its number. */
export function targetOf(monitor: MonitorInfo, word: MonitorWord, snap: ContextSnapshot): MonitorTarget {
  if ((MONITOR_TARGETS as readonly string[]).includes(word)) return word as MonitorTarget;
  return roleFor(monitor) ?? (String(snap.monitors.indexOf(monitor) + 1) as MonitorTarget);
}
