// When the popover (and the launcher) may hide because it lost focus. Pure decisions; the
// windows feed them what Electron reports.
//
// The rules, kept simple on purpose (nothing is added to the IPC contract for this):
// - a blur within BLUR_GRACE_MS of showing is ignored: showing from a tray click or a
//   hotkey can hand focus around once before it settles (Windows, some X11 window managers);
// - never while DevTools are open for the window (they take focus);
// - never while a native dialog DeskPilot opened is up (native-dialogs.ts counts them; the
//   macOS microphone prompt is opened that way, see permissions.ts). Confirmations and
//   clarifications are drawn inside the window itself, so they never blur it.

export const BLUR_GRACE_MS = 300;

export interface BlurState {
  now: number;
  /** When the window was last shown (ms, same clock as now). */
  shownAt: number;
  visible: boolean;
  devToolsOpen: boolean;
  nativeDialogOpen: boolean;
  /** A confirmation or safety question is open inside one of our windows (renderer says so). */
  modalOpen: boolean;
}

export function shouldHideOnBlur(s: BlurState): boolean {
  if (!s.visible) return false;
  if (s.now - s.shownAt < BLUR_GRACE_MS) return false;
  if (s.devToolsOpen || s.nativeDialogOpen || s.modalOpen) return false;
  return true;
}

/**
 * Clicking the tray icon while the popover is open blurs the popover first (it hides), and
 * only then delivers the click: that click meant "close", so it must not show it again.
 */
export const REOPEN_AFTER_BLUR_MS = 250;

export type ToggleAction = 'show' | 'hide' | 'none';

export function trayToggle(s: { now: number; visible: boolean; hiddenByBlurAt: number | null }): ToggleAction {
  if (s.visible) return 'hide';
  if (s.hiddenByBlurAt !== null && s.now - s.hiddenByBlurAt < REOPEN_AFTER_BLUR_MS) return 'none';
  return 'show';
}
