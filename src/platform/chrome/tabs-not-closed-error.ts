import { DeskPilotError } from '../../engine/errors';

/**
 * Some tabs were still open after closing was requested, typically because a page asked
 * "Leave site?". Carries what did close so the caller can still report it.
 */
export class TabsNotClosedError extends DeskPilotError {
  constructor(
    readonly stillOpen: string[],
    readonly closed: string[],
    readonly missing: string[],
    waitedMs: number,
  ) {
    super(
      `${stillOpen.length} tab(s) were still open ${Math.round(waitedMs / 100) / 10} s after closing them (a "Leave site?" dialog may be waiting in Chrome): ${stillOpen.join(', ')}`,
      'tabs_not_closed',
    );
  }
}
