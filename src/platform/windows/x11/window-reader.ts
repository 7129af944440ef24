// Reading what the engine needs about client windows. Every request for every window is
// issued at once and answered in one pipelined burst: a listing costs about two round trips
// however many windows there are.
import type { RawWindow, Rect4 } from '../../../engine/ports';
import { PREDEFINED, type Atoms } from './atoms';
import { outerFrame, parseExtents, parseSizeHints, type FrameExtents, type SizeHints } from './frame-geometry';
import { acceptsFocus } from './focus-model';
import { cardinals, text, wmClass } from './property-decode';
import { formatWindowId } from './window-id';
import { isAppWindow } from './window-type';
import type { XConnection, XProperty } from './x-connection';

/** Where a client window is, and what surrounds it. */
export interface FrameFacts {
  frame: Rect4;
  extents: FrameExtents;
  border: number;
}

export async function readFrame(conn: XConnection, atoms: Atoms, xid: number): Promise<FrameFacts> {
  const [extentsProp, geometry, origin] = await Promise.all([
    conn.getProperty(xid, atoms._NET_FRAME_EXTENTS),
    conn.geometry(xid),
    // GetGeometry is relative to the parent (the WM's frame); the root position needs a translation.
    conn.translateToRoot(xid),
  ]);
  const extents = parseExtents(cardinals(extentsProp));
  const border = geometry.borderWidth;
  const frame = outerFrame({ x: origin.destX, y: origin.destY, width: geometry.width, height: geometry.height, border }, extents);
  return { frame, extents, border };
}

export async function readStates(conn: XConnection, atoms: Atoms, xid: number): Promise<number[]> {
  return cardinals(await conn.getProperty(xid, atoms._NET_WM_STATE));
}

export async function readSizeHints(conn: XConnection, xid: number): Promise<SizeHints | null> {
  return parseSizeHints(cardinals(await conn.getProperty(xid, PREDEFINED.WM_NORMAL_HINTS)));
}

export async function readAcceptsFocus(conn: XConnection, atoms: Atoms, xid: number): Promise<boolean> {
  const [hints, protocols] = await Promise.all([conn.getProperty(xid, PREDEFINED.WM_HINTS), conn.getProperty(xid, atoms.WM_PROTOCOLS)]);
  return acceptsFocus(cardinals(hints), cardinals(protocols), atoms.WM_TAKE_FOCUS);
}

/** Root-window list of managed windows, bottom-to-top when the WM keeps a stacking list. */
export async function readClientList(conn: XConnection, atoms: Atoms): Promise<{ ids: number[]; stacking: boolean }> {
  const stacking = cardinals(await conn.getProperty(conn.root, atoms._NET_CLIENT_LIST_STACKING));
  if (stacking.length > 0) return { ids: stacking, stacking: true };
  return { ids: cardinals(await conn.getProperty(conn.root, atoms._NET_CLIENT_LIST)), stacking: false };
}

export async function readActiveWindow(conn: XConnection, atoms: Atoms): Promise<number> {
  return cardinals(await conn.getProperty(conn.root, atoms._NET_ACTIVE_WINDOW))[0] ?? 0;
}

/** RawWindow for one client, or null when it is not an application window. Rejects when it is gone. */
export async function readWindow(conn: XConnection, atoms: Atoms, xid: number, activeXid: number): Promise<RawWindow | null> {
  const prop = (atom: number): Promise<XProperty> => conn.getProperty(xid, atom);
  const [types, states, pidProp, classProp, netName, wmName, frame] = await Promise.all([
    prop(atoms._NET_WM_WINDOW_TYPE),
    prop(atoms._NET_WM_STATE),
    prop(atoms._NET_WM_PID),
    prop(PREDEFINED.WM_CLASS),
    prop(atoms._NET_WM_NAME),
    // Many X11 apps (xterm) set only WM_NAME; asking for both costs no extra round trip.
    prop(PREDEFINED.WM_NAME),
    readFrame(conn, atoms, xid),
  ]);
  const stateList = cardinals(states);
  if (!isAppWindow(cardinals(types), stateList, atoms)) return null;
  const { instance, klass } = wmClass(classProp);
  const pid = cardinals(pidProp)[0];
  return {
    id: formatWindowId(xid),
    pid: pid && pid > 0 ? pid : null,
    appKeys: [...new Set([instance, klass].filter(Boolean))],
    fallbackName: klass || instance || 'unknown',
    title: text(netName, atoms.UTF8_STRING) ?? text(wmName, atoms.UTF8_STRING) ?? '',
    bounds: frame.frame,
    focused: xid === activeXid,
    minimized: stateList.includes(atoms._NET_WM_STATE_HIDDEN),
    fullscreen: stateList.includes(atoms._NET_WM_STATE_FULLSCREEN),
    maximized: stateList.includes(atoms._NET_WM_STATE_MAXIMIZED_VERT) && stateList.includes(atoms._NET_WM_STATE_MAXIMIZED_HORZ),
  };
}
