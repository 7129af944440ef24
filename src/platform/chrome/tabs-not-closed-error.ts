import { TabsPartlyClosedError } from '../../engine/tabs-partly-closed';

const ids = (list: string[]) => (list.length ? list.join(', ') : 'none');

/**
 * Some tabs were still open after closing was requested, typically because a page asked
 * "Leave site?". Carries what did close so the caller can still report it.
 */
export class TabsNotClosedError extends TabsPartlyClosedError {
  constructor(
    readonly stillOpen: string[],
    closed: string[],
    missing: string[],
    waitedMs: number,
  ) {
    const waited = `${Math.round(waitedMs / 100) / 10} s`;
    super(
      `${stillOpen.length} tab(s) were still open ${waited} after closing them (a "Leave site?" dialog may be waiting in Chrome): ${stillOpen.join(', ')}`,
      'tabs_not_closed',
      closed,
      stillOpen,
      missing,
      `Not every tab closed within ${waited} (a "Leave site?" dialog may be waiting in Chrome)`,
    );
  }
}

/** The connection to Chrome dropped while tabs were being closed: which ones Chrome had closed by then, which not. */
export class TabsCloseInterruptedError extends TabsPartlyClosedError {
  constructor(endpoint: string, reason: string, closed: string[], notClosed: string[], missing: string[]) {
    super(
      `The connection to Chrome at ${endpoint} dropped while closing tabs (${reason}); closed before the drop: ${ids(closed)}; not closed: ${ids(notClosed)}. Retry and DeskPilot will reconnect, or start Chrome with \`deskpilot chrome launch\`.`,
      'chrome_unavailable',
      closed,
      notClosed,
      missing,
      `The connection to Chrome at ${endpoint} dropped while closing tabs (Chrome may have quit or crashed)`,
    );
  }
}
