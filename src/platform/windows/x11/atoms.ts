// The atoms this backend speaks, interned once per connection (in one pipelined burst).
import { STANDARD_WINDOW_TYPES } from './window-types';
import type { XConnection } from './x-connection';

const NAMES = [
  'UTF8_STRING',
  'WM_PROTOCOLS',
  'WM_TAKE_FOCUS',
  '_NET_SUPPORTING_WM_CHECK',
  '_NET_WM_NAME',
  '_NET_CLIENT_LIST',
  '_NET_CLIENT_LIST_STACKING',
  '_NET_ACTIVE_WINDOW',
  '_NET_CURRENT_DESKTOP',
  '_NET_WORKAREA',
  '_NET_FRAME_EXTENTS',
  '_NET_WM_PID',
  '_NET_WM_STRUT',
  '_NET_WM_STRUT_PARTIAL',
  '_NET_MOVERESIZE_WINDOW',
  '_NET_CLOSE_WINDOW',
  '_NET_RESTACK_WINDOW',
  'WM_CHANGE_STATE',
  '_NET_WM_WINDOW_TYPE',
  ...STANDARD_WINDOW_TYPES,
  '_NET_WM_STATE',
  '_NET_WM_STATE_HIDDEN',
  '_NET_WM_STATE_MAXIMIZED_VERT',
  '_NET_WM_STATE_MAXIMIZED_HORZ',
  '_NET_WM_STATE_FULLSCREEN',
  '_NET_WM_STATE_SHADED',
  '_NET_WM_STATE_SKIP_TASKBAR',
] as const;

/** Predefined atoms (fixed by the core protocol, never interned). */
export const PREDEFINED = { WM_HINTS: 35, WM_NAME: 39, WM_NORMAL_HINTS: 40, WM_CLASS: 67 } as const;

export type AtomName = (typeof NAMES)[number];
export type Atoms = Readonly<Record<AtomName, number>>;

export async function internAtoms(conn: XConnection): Promise<Atoms> {
  const values = await Promise.all(NAMES.map((name) => conn.internAtom(name)));
  return Object.fromEntries(NAMES.map((name, i) => [name, values[i]!])) as Atoms;
}
