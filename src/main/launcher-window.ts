import { app, type BrowserWindow, screen } from 'electron';
import { centred } from './popover-position';
import { floatingWindow } from './floating-window';
import { type BlurHider, sendEvent } from './window-kit';
import { fittedHeight, LAUNCHER_HEIGHTS, LAUNCHER_SIZE } from './launcher-size';

// The hotkey launcher: a frameless bar centred on the display the cursor is on. Created
// hidden at start and never throttled in the background, so showing it is instant even
// after hours. Like the popover it hides when it loses focus (same guard); Esc hides it too.
// It is as tall as its content (the page says how tall, window:fit): its top stays where a
// full-height launcher would start, so the field never moves while the list grows below it.


export class LauncherWindow {
  readonly win: BrowserWindow;
  private readonly blur: BlurHider;
  private height = LAUNCHER_HEIGHTS.min;

  constructor(
    private readonly platform: NodeJS.Platform,
    /** Runs before showing (remember the frontmost window); showing waits for it, briefly. */
    private readonly beforeShow: () => Promise<void>,
  ) {
    ({ win: this.win, blur: this.blur } = floatingWindow('launcher', LAUNCHER_SIZE, platform, { webPreferences: { backgroundThrottling: false } }));
  }

  /** The launcher hotkey: show it, bring it forward when shown but not focused, else hide it. */
  async toggle(): Promise<'shown' | 'hidden'> {
    if (this.win.isVisible() && this.win.isFocused()) {
      this.win.hide();
      return 'hidden';
    }
    await this.show();
    return 'shown';
  }

  async show(): Promise<void> {
    if (this.win.isDestroyed()) return;
    if (!this.win.isVisible()) {
      await this.beforeShow();
      const work = screen.getDisplayNearestPoint(screen.getCursorScreenPoint()).workArea;
      this.win.setBounds({ ...centred(work, LAUNCHER_SIZE), width: LAUNCHER_SIZE.width, height: this.height });
    }
    this.blur.markShown();
    // A menu-bar app is not the active app on macOS: the user asked for it, so take focus.
    if (this.platform === 'darwin') app.focus({ steal: true });
    this.win.show();
    this.win.focus();
    sendEvent(this.win, 'ui:show');
  }

  /** The page's content height: the window takes it (animated where the system animates resizes). */
  fit(height: number): boolean {
    const h = fittedHeight(height);
    if (this.win.isDestroyed()) return false;
    this.height = h;
    const b = this.win.getBounds();
    if (b.height === h) return false;
    this.win.setBounds({ ...b, height: h }, this.platform === 'darwin');
    return true;
  }
}
