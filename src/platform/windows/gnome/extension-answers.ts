import { z } from 'zod';

// What DeskPilot's GNOME Shell extension (gnome-extension/deskpilot@deskpilot.app) answers on
// org.deskpilot.Windows1, as schemas: List and Monitors come back as JSON text, and nothing the
// shell says is trusted before it parsed here.

export const EXTENSION_UUID = 'deskpilot@deskpilot.app';
export const BUS_NAME = 'org.deskpilot.Windows1';
export const OBJECT_PATH = '/org/deskpilot/Windows1';
export const INTERFACE = 'org.deskpilot.Windows1';
/** The extension's Info().api_version this backend speaks. */
export const API_VERSION = 1;
/** The prefix of the extension's own D-Bus errors (…Error.NoSuchWindow, …Error.InvalidArgument). */
export const ERROR_PREFIX = 'org.deskpilot.Windows1.Error.';

const int = z.number().int();
const rect = z.object({ x: int, y: int, width: int.nonnegative(), height: int.nonnegative() });

export const infoSchema = z.object({ api_version: int, shell_version: z.string() });

export const windowSchema = z.object({
  id: z.string().regex(/^[0-9]{1,20}$/),
  title: z.string(),
  wm_class: z.string().nullable(),
  wm_class_instance: z.string().nullable(),
  gtk_app_id: z.string().nullable(),
  sandboxed_app_id: z.string().nullable(),
  pid: int.positive().nullable(),
  frame: rect,
  minimized: z.boolean(),
  fullscreen: z.boolean(),
  maximized: z.boolean(),
  focused: z.boolean(),
  /** 0 is the top of the stacking order. */
  stacking: int.nonnegative(),
  monitor: int,
  client: z.enum(['wayland', 'x11']),
});
export type ShellWindow = z.infer<typeof windowSchema>;

export const windowsSchema = z.array(windowSchema);

export const monitorSchema = z.object({
  index: int.nonnegative(),
  connector: z.string().nullable(),
  display_name: z.string().nullable(),
  geometry: rect,
  work_area: rect,
  primary: z.boolean(),
  scale: z.number().positive(),
});
export type ShellMonitor = z.infer<typeof monitorSchema>;

export const monitorsSchema = z.array(monitorSchema);

/** MoveResize's four out arguments: the frame the window got. */
export const frameTupleSchema = z.tuple([int, int, int, int]);

/** Parses an answer that is JSON text; a bad one says which method and what was wrong. */
export function parseJsonAnswer<T>(method: string, schema: z.ZodType<T>, text: unknown): T {
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch {
    throw new Error(`the GNOME extension's ${method} answer is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`the GNOME extension's ${method} answer is not what DeskPilot expects (${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'invalid'})`);
  }
  return parsed.data;
}
