import { z } from 'zod';

// Where on a monitor a window goes, by name: the layouts of window managers such as Rectangle.
// The system computes the frame from the monitor's work area when the command runs, so a
// planner never does the arithmetic. docs/protocol.md has each one's exact rectangle.

export const LAYOUTS = [
  'left_half',
  'right_half',
  'top_half',
  'bottom_half',
  'top_left',
  'top_right',
  'bottom_left',
  'bottom_right',
  'first_third',
  'center_third',
  'last_third',
  'first_two_thirds',
  'last_two_thirds',
  'top_left_sixth',
  'top_center_sixth',
  'top_right_sixth',
  'bottom_left_sixth',
  'bottom_center_sixth',
  'bottom_right_sixth',
  'maximize',
  'almost_maximize',
  'center',
  'larger',
  'smaller',
] as const;

export const Layout = z
  .enum(LAYOUTS, { error: `must be one of ${LAYOUTS.map((l) => `"${l}"`).join(', ')}` })
  .describe(
    'A region of the work area. first/last = left/right (top/bottom on a portrait monitor); sixths: 3×2 grid; almost_maximize: 90%, centred; center: its size, centred; larger/smaller: ±10%.',
  );
export type Layout = z.infer<typeof Layout>;

/** Where people say a monitor is: the protocol's roles. top/bottom exist only when one monitor is above another. */
export const MONITOR_ROLES = ['main', 'left', 'right', 'top', 'bottom'] as const;

/** Monitors by number: "1" is the first of the context's monitor list. */
export const MONITOR_NUMBERS = ['1', '2', '3', '4', '5', '6', '7', '8'] as const;

/** Where place_app may send a window: a role, the next/previous monitor from where it is, or a number. */
export const MONITOR_TARGETS = [...MONITOR_ROLES, 'next', 'previous', ...MONITOR_NUMBERS] as const;
export type MonitorTarget = (typeof MONITOR_TARGETS)[number];

// Without regard to case: the snapshot prints monitors as the system names them ("LEFT"), and a
// client that copies that name means the same monitor. Advertised (JSON Schema) in lower case.
export const MonitorTarget = z
  .string({ error: `must be one of ${MONITOR_TARGETS.map((m) => `"${m}"`).join(', ')}` })
  .trim()
  .toLowerCase()
  .refine((v) => (MONITOR_TARGETS as readonly string[]).includes(v), {
    error: `must be one of ${MONITOR_TARGETS.map((m) => `"${m}"`).join(', ')}`,
  })
  .meta({ enum: [...MONITOR_TARGETS] })
  .describe(
    'main = primary; left/right/top/bottom by position; next/previous from the one it is on; "1"…"8" = its number in the context.',
  ) as unknown as z.ZodType<MonitorTarget, string>;

export const WINDOW_STATES = ['minimized', 'normal', 'fullscreen'] as const;
export const WindowState = z
  .enum(WINDOW_STATES, { error: `must be one of ${WINDOW_STATES.map((s) => `"${s}"`).join(', ')}` })
  .describe('normal = restore (un-minimise, leave full screen); fullscreen = true full screen, not maximize.');
export type WindowState = z.infer<typeof WindowState>;
