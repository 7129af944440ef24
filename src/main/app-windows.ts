import { app, BrowserWindow, type WebContents } from 'electron';
import type { IpcEvent, IpcEventPayloads } from '../protocol/ipc-channels';
import type { LauncherWindow } from './launcher-window';
import type { Anchor } from './popover-position';
import type { PopoverWindow } from './popover-window';
import type { SettingsWindow } from './settings-window';
import { sendEvent } from './window-kit';

// DeskPilot's three windows together: which web contents are ours (the IPC sender check),
// Esc, the push-to-talk hotkey, and agent mode's progress pushes.

export class AppWindows {
  constructor(
    readonly popover: PopoverWindow,
    readonly launcher: LauncherWindow,
    readonly settings: SettingsWindow,
    private readonly platform: NodeJS.Platform,
  ) {}

  all(): BrowserWindow[] {
    return [this.popover.win, this.launcher.win, this.settings.current()].filter((w): w is BrowserWindow => !!w && !w.isDestroyed());
  }

  /** A push for every window (agent mode's progress shows wherever the person looks; a changed desk reaches the launcher). */
  broadcast<E extends IpcEvent>(event: E, payload: IpcEventPayloads[E]): void {
    // sendEvent's arguments depend on the event; here any event passes through with its payload.
    const send = sendEvent as (win: BrowserWindow, event: IpcEvent, ...payload: unknown[]) => void;
    for (const w of this.all()) send(w, event, ...(payload === undefined ? [] : [payload]));
  }

  /** Only our windows' pages may call main (ipc-manager refuses everyone else). */
  isOurs(sender: WebContents): boolean {
    return this.all().some((w) => w.webContents === sender);
  }

  /**
   * window:hide (Esc). The page that asks is the focused one (a key press needs focus); when
   * none of ours has focus, the visible launcher/popover is hidden.
   */
  hideFocused(): boolean {
    const focused = BrowserWindow.getFocusedWindow();
    const ours = this.all();
    const targets = focused && ours.includes(focused) ? [focused] : [this.launcher.win, this.popover.win].filter((w) => w.isVisible());
    for (const w of targets) w.hide();
    if (targets.length > 0) this.afterHide();
    return targets.length > 0;
  }

  /** The launcher hotkey. */
  async toggleLauncher(): Promise<void> {
    if ((await this.launcher.toggle()) === 'hidden') this.afterHide();
  }

  /** A click on the tray icon. */
  async togglePopover(anchor: Anchor): Promise<void> {
    if ((await this.popover.toggle(anchor)) === 'hidden') this.afterHide();
  }

  /** macOS hands focus back to the app the user came from only when the app hides. */
  private afterHide(): void {
    if (this.platform === 'darwin' && !this.all().some((w) => w.isVisible())) app.hide();
  }

  /** Push-to-talk: to the visible launcher or popover (focused first), else the launcher, shown. */
  async voice(): Promise<void> {
    const visible = [this.launcher.win, this.popover.win].filter((w) => !w.isDestroyed() && w.isVisible());
    const target = visible.find((w) => w.isFocused()) ?? visible[0];
    if (target) {
      target.focus();
      sendEvent(target, 'ui:voice');
      return;
    }
    await this.launcher.show();
    sendEvent(this.launcher.win, 'ui:voice');
  }
}
