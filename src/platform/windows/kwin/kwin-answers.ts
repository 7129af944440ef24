// What KWin scripts answer, checked with zod before anything uses it, and turned into the
// window port's shapes. A script runs inside the compositor: its answer is outside input.
import { z } from 'zod';
import { DeskPilotError, WindowGoneError, WindowsUnavailableError } from '../../../engine/errors';
import type { RawMonitor, RawWindow, Rect4 } from '../../../engine/ports';

const KwinRect = z.object({ x: z.number(), y: z.number(), width: z.number().min(0), height: z.number().min(0) });

export const KwinWindowInfo = z.object({
  id: z.string().min(1),
  resourceClass: z.string(),
  resourceName: z.string(),
  desktopFile: z.string(),
  caption: z.string(),
  pid: z.number().int(),
  frame: KwinRect,
  minimized: z.boolean(),
  fullScreen: z.boolean(),
  active: z.boolean(),
  stacking: z.number().int(),
  normal: z.boolean(),
  /** After an action: the window as it was just before it (KWin applies a new frame later). */
  previous: z.object({ frame: KwinRect, minimized: z.boolean(), fullScreen: z.boolean() }).optional(),
});
export type KwinWindowInfo = z.infer<typeof KwinWindowInfo>;

export const KwinScreen = z.object({
  index: z.number().int().min(0),
  name: z.string().min(1).nullable(),
  scale: z.number().positive().nullable(),
  bounds: KwinRect,
  workArea: KwinRect,
});
export type KwinScreen = z.infer<typeof KwinScreen>;

export const KwinSnapshot = z.object({ windows: z.array(KwinWindowInfo), screens: z.array(KwinScreen).min(1) });
export type KwinSnapshot = z.infer<typeof KwinSnapshot>;

const Envelope = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), gone: z.literal(true) }),
  z.object({ ok: z.literal(false), refused: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/**
 * The value of a script's answer, checked against `schema`. A window the script did not find is
 * a WindowGoneError for `windowId`; what KWin refuses is 'unavailable' naming KWin.
 */
export function readAnswer<T>(json: string, schema: z.ZodType<T>, what: string, windowId?: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new WindowsUnavailableError(`KWin's answer while ${what} was not JSON`);
  }
  const envelope = Envelope.safeParse(parsed);
  if (!envelope.success) throw new WindowsUnavailableError(`KWin's answer while ${what} has an unexpected shape: ${envelope.error.issues[0]?.message}`);
  const answer = envelope.data;
  if (answer.ok) {
    const value = schema.safeParse(answer.value);
    if (value.success) return value.data;
    const issue = value.error.issues[0];
    throw new WindowsUnavailableError(`KWin's answer while ${what} has an unexpected shape at ${issue?.path.join('.') || 'the top'}: ${issue?.message}`);
  }
  if ('gone' in answer) throw new WindowGoneError(windowId ?? '?');
  if ('refused' in answer) throw new DeskPilotError(`${answer.refused} (${what})`, 'unavailable');
  throw new WindowsUnavailableError(`KWin's script failed while ${what}: ${answer.error}`);
}

/** KWin 5 keeps fractional logical coordinates; the port speaks whole pixels. */
export function toRect4(r: z.infer<typeof KwinRect>): Rect4 {
  const left = Math.round(r.x);
  const top = Math.round(r.y);
  return [left, top, left + Math.round(r.width), top + Math.round(r.height)];
}

export function toRawWindow(w: KwinWindowInfo): RawWindow {
  // Most specific first: the desktop file id KWin matched, the app id / instance, the class.
  const keys = [w.desktopFile, w.resourceName, w.resourceClass].filter((k, i, all) => k !== '' && all.indexOf(k) === i);
  return {
    id: w.id,
    pid: w.pid > 0 ? w.pid : null,
    appKeys: keys,
    fallbackName: w.resourceClass || w.desktopFile || w.resourceName || 'unknown app',
    title: w.caption,
    bounds: toRect4(w.frame),
    focused: w.active,
    minimized: w.minimized,
    fullscreen: w.fullScreen,
  };
}

/** Normal windows, top of the stacking order first (the port's order). */
export function windowsTopFirst(snapshot: KwinSnapshot): RawWindow[] {
  return snapshot.windows
    .filter((w) => w.normal)
    .sort((a, b) => b.stacking - a.stacking)
    .map(toRawWindow);
}

/**
 * Monitors named as KWin names its outputs. KWin 5's scripting API has no output names: they
 * come from `names` (KWin's support information, by screen index) when given.
 */
export function toRawMonitors(screens: KwinScreen[], names: ReadonlyMap<number, { name: string; scale: number | null }>): RawMonitor[] {
  return screens.map((s) => {
    const named = names.get(s.index);
    const name = s.name ?? named?.name ?? `Screen ${s.index}`;
    return {
      id: name,
      name,
      bounds: toRect4(s.bounds),
      workArea: toRect4(s.workArea),
      // KWin orders screens by the priority the user gave them: the first is the primary one.
      primary: s.index === 0,
      scale: s.scale ?? named?.scale ?? 1,
    };
  });
}
