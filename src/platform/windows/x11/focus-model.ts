// Whether the window manager can give a window input focus (ICCCM 4.1.7). A window whose
// WM_HINTS say input=False and that does not take part in WM_TAKE_FOCUS (xclock) is "No Input":
// activating it only raises it, so waiting for it to become the active window is pointless.

const INPUT_HINT = 1;

/** WM_HINTS (flags, input, ...) and WM_PROTOCOLS atoms; a missing WM_HINTS means it accepts focus. */
export function acceptsFocus(wmHints: readonly number[], protocols: readonly number[], takeFocusAtom: number): boolean {
  if (protocols.includes(takeFocusAtom)) return true;
  const [flags = 0, input = 1] = wmHints;
  return (flags & INPUT_HINT) === 0 || input !== 0;
}
