import type { ErrorCode } from '../protocol/codes';
import { DeskPilotError } from './errors';

/**
 * Closing a batch of tabs stopped part-way: some tabs closed, others did not — Chrome went
 * away mid-batch, or a tab would not close. Carries which is which (target ids), so the report
 * can name the tabs that did close before it stopped.
 */
export class TabsPartlyClosedError extends DeskPilotError {
  constructor(
    message: string,
    code: ErrorCode,
    readonly closed: string[],
    readonly notClosed: string[],
    readonly missing: string[],
    /** What stopped it, as the start of a sentence: "The connection to Chrome at 127.0.0.1:9222 dropped while closing tabs". */
    readonly stoppedBy: string,
  ) {
    super(message, code);
  }
}
