import type { ErrorCode } from '../protocol/codes';

// Errors that cross layer boundaries carry a message meant for a person: what went wrong
// and, where there is one, what to do about it.

export class DeskPilotError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Chrome is not reachable; the message says how to connect it. */
export class ChromeUnavailableError extends DeskPilotError {
  constructor(message: string) {
    super(message, 'chrome_unavailable');
  }
}

/** A tab resolved from the snapshot no longer exists. */
export class TabGoneError extends DeskPilotError {
  constructor(readonly targetId: string) {
    super(`the tab is no longer open (target ${targetId})`, 'tab_gone');
  }
}

/** No window backend exists for this platform or session yet. */
export class WindowsUnavailableError extends DeskPilotError {
  constructor(message: string) {
    super(message, 'windows_unavailable');
  }
}

export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A window resolved from the snapshot no longer exists. */
export class WindowGoneError extends DeskPilotError {
  constructor(readonly windowId: string) {
    super(`the window is no longer open (window ${windowId})`, 'window_gone');
  }
}
