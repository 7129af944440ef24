// EWMH requests to the window manager (client messages to the root window). The window
// manager owns placement, state and focus; asking it, rather than configuring windows
// directly, is what keeps decorations, work areas and stacking consistent.
import type { Rect4 } from '../../../engine/ports';
import type { Atoms } from './atoms';
import { clientSizeForFrame, type FrameExtents } from './frame-geometry';
import type { XConnection } from './x-connection';

/** Source indication 2: a pager/tool acting for the user, which WMs obey without focus-stealing checks. */
const SOURCE_PAGER = 2;
const CURRENT_TIME = 0;

/**
 * NorthWest gravity: x,y place the top-left corner of the OUTER frame (ICCCM 4.1.2.3), so the
 * engine's frame position goes through unchanged; width/height are always the CLIENT size.
 * (Static gravity would place the client's own top-left instead.)
 */
const GRAVITY_NORTH_WEST = 1;
const HAS_X = 1 << 8;
const HAS_Y = 1 << 9;
const HAS_WIDTH = 1 << 10;
const HAS_HEIGHT = 1 << 11;

const STATE_REMOVE = 0;
const STATE_ADD = 1;
/** Stack mode Above with no sibling: the top of its layer. */
const STACK_ABOVE = 0;
/** ICCCM 4.1.4: the state a client asks for with WM_CHANGE_STATE to be iconified (minimised). */
const ICONIC_STATE = 3;

/** The data.l[] of a _NET_MOVERESIZE_WINDOW request giving `frame` as the outer frame. */
export function moveResizeData(frame: Rect4, ext: FrameExtents, border: number): number[] {
  const { width, height } = clientSizeForFrame(frame, ext, border);
  const flags = GRAVITY_NORTH_WEST | HAS_X | HAS_Y | HAS_WIDTH | HAS_HEIGHT | (SOURCE_PAGER << 12);
  return [flags, frame[0], frame[1], width, height];
}

export function requestMoveResize(conn: XConnection, atoms: Atoms, xid: number, frame: Rect4, ext: FrameExtents, border: number) {
  return conn.sendToRoot(xid, atoms._NET_MOVERESIZE_WINDOW, moveResizeData(frame, ext, border));
}

/** Activation: raises, un-minimises, switches to its desktop and focuses (if the window accepts focus). */
export function requestActivate(conn: XConnection, atoms: Atoms, xid: number) {
  return conn.sendToRoot(xid, atoms._NET_ACTIVE_WINDOW, [SOURCE_PAGER, CURRENT_TIME, 0]);
}

/** Removes up to two states in one request (EWMH allows two properties per message). */
export function requestRemoveStates(conn: XConnection, atoms: Atoms, xid: number, first: number, second = 0) {
  return conn.sendToRoot(xid, atoms._NET_WM_STATE, [STATE_REMOVE, first, second, SOURCE_PAGER]);
}

/** Adds up to two states in one request (fullscreen, …). */
export function requestAddStates(conn: XConnection, atoms: Atoms, xid: number, first: number, second = 0) {
  return conn.sendToRoot(xid, atoms._NET_WM_STATE, [STATE_ADD, first, second, SOURCE_PAGER]);
}

/** Raise without activating: the window goes to the top of its layer, focus stays where it is. */
export function requestRaise(conn: XConnection, atoms: Atoms, xid: number) {
  return conn.sendToRoot(xid, atoms._NET_RESTACK_WINDOW, [SOURCE_PAGER, 0, STACK_ABOVE]);
}

/** Minimise: EWMH leaves _NET_WM_STATE_HIDDEN to the WM; a client asks through ICCCM's WM_CHANGE_STATE. */
export function requestIconify(conn: XConnection, atoms: Atoms, xid: number) {
  return conn.sendToRoot(xid, atoms.WM_CHANGE_STATE, [ICONIC_STATE]);
}

/** The close button's request: the WM asks the app (WM_DELETE_WINDOW), which may exit or ask the user. */
export function requestClose(conn: XConnection, atoms: Atoms, xid: number) {
  return conn.sendToRoot(xid, atoms._NET_CLOSE_WINDOW, [CURRENT_TIME, SOURCE_PAGER]);
}
