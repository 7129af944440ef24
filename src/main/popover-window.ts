import { type BrowserWindow, screen } from 'electron';
import { trayToggle } from './blur-guard';
import { popoverPosition, type Anchor } from './popover-position';
import { floatingWindow } from './floating-window';
import { type BlurHider, sendEvent } from './window-kit';

// The tray popover: a small frameless window hanging from the tray icon, hidden when it
// loses focus (blur-guard.ts). Created hidden at start so the first click is instant.

export const POPOVER_SIZE = { width: 380, height: 520 };

export class PopoverWindow {
  readonly win: BrowserWindow;
  private readonly blur: BlurHider;

  constructor(
    private readonly platform: NodeJS.Platform,
    /** Runs before showing (remember the frontmost window); showing waits for it, briefly. */
    private readonly beforeShow: () => Promise<void>,
  ) {
    ({ win: this.win, blur: this.blur } = floatingWindow('popover', POPOVER_SIZE, platform, { movable: false }));
  }

  /** A click on the tray icon: open, or close when it is open (or was open a moment ago). */
  async toggle(anchor: Anchor): Promise<'shown' | 'hidden' | 'unchanged'> {
    const action = trayToggle({ now: Date.now(), visible: this.win.isVisible(), hiddenByBlurAt: this.blur.hiddenByBlurAt });
    if (action === 'hide') {
      this.win.hide();
      return 'hidden';
    }
    if (action === 'none') return 'unchanged';
    await this.show(anchor);
    return 'shown';
  }

  async show(anchor: Anchor): Promise<void> {
    if (this.win.isDestroyed()) return;
    if (!this.win.isVisible()) await this.beforeShow();
    const display =
      anchor.kind === 'tray'
        ? screen.getDisplayMatching(anchor.bounds)
        : anchor.kind === 'cursor'
          ? screen.getDisplayNearestPoint(anchor.point)
          : screen.getPrimaryDisplay();
    const { x, y } = popoverPosition(this.platform, anchor, display.workArea, POPOVER_SIZE);
    this.win.setBounds({ x, y, ...POPOVER_SIZE });
    this.blur.markShown();
    this.win.show();
    this.win.focus();
    sendEvent(this.win, 'ui:show');
  }
}
