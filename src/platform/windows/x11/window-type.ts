// Which managed windows count as application windows. Pure, so the policy is unit-tested.
import type { Atoms } from './atoms';
import { STANDARD_WINDOW_TYPES as STANDARD_TYPES } from './window-types';


/**
 * _NET_WM_WINDOW_TYPE lists types most specific first, and may start with vendor types
 * (e.g. _KDE_NET_WM_WINDOW_TYPE_OVERRIDE); like a window manager, use the first standard one.
 * No standard type means normal (EWMH). Only normal windows and dialogs are kept: docks,
 * desktops, toolbars, menus, splash screens and notifications are not something to place.
 *
 * Windows marked _NET_WM_STATE_SKIP_TASKBAR are left out too: applications set it on windows
 * that are not meant to be switched to (DeskPilot's own pop-up, drop-down consoles, palettes),
 * so leaving them out keeps the list to what a person sees in their taskbar.
 */
export function isAppWindow(types: readonly number[], states: readonly number[], atoms: Atoms): boolean {
  if (states.includes(atoms._NET_WM_STATE_SKIP_TASKBAR)) return false;
  const standard = new Set(STANDARD_TYPES.map((name) => atoms[name]));
  const first = types.find((t) => standard.has(t));
  return first === undefined || first === atoms._NET_WM_WINDOW_TYPE_NORMAL || first === atoms._NET_WM_WINDOW_TYPE_DIALOG;
}
