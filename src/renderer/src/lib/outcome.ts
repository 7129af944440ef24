import type { CommandResponse } from '../../../protocol/ipc';
import type { ExecReport } from '../../../protocol/report';
import type { FieldError } from '../../../protocol/validation';

// One line that sums up what a request led to: for history, the live region and headlines.

export type Mark = 'ok' | 'fail' | 'ask' | 'info' | 'cancel' | 'wait';

export interface Outcome {
  mark: Mark;
  message: string;
}

export const CANCELLED_TEXT = 'Cancelled — nothing was changed.';

export const formatFieldError = (e: FieldError): string => (e.path ? `${e.path}: ${e.message}` : e.message);


/** The message for a finished request that neither did nor failed anything. */
export const NOTHING_TO_DO = 'Nothing to do.';

/**
 * A question (it asks something, or offers choices) gets ?; a planner's answer that is only a
 * statement ("No running app matches …", "I could not understand that") means nothing was
 * done, and gets ✗ like any other failure.
 */
export const clarificationMark = (question: string, candidates = 0): Mark => (candidates > 0 || question.includes('?') ? 'ask' : 'fail');

/**
 * "Which tab: 2 "GitHub - a" (…) or 4 "GitHub - b" (…)?" above buttons that say the same →
 * "Which tab?". Only a one-question text shaped "… which <thing>: …?" is shortened; anything
 * else comes back whole (null).
 */
export function shortQuestion(question: string): string | null {
  const m = /^([^:?]*\bwhich\b[^:?]*):\s.*\?$/is.exec(question.trim());
  return m ? `${m[1]!.trim()}?` : null;
}

export function reportOutcome(report: ExecReport): Outcome {
  switch (report.status) {
    case 'cancelled':
      return { mark: 'cancel', message: CANCELLED_TEXT };
    case 'clarification': {
      const message = report.clarification?.reason ?? 'DeskPilot needs more detail.';
      return { mark: clarificationMark(message), message };
    }
    case 'invalid':
    case 'unavailable':
      return { mark: 'fail', message: report.errors[0]?.message ?? 'Nothing was run.' };
    case 'failed': {
      const failed = report.results.find((r) => !r.ok);
      return { mark: 'fail', message: failed?.message ?? 'Something failed.' };
    }
    default:
      return report.results[0] ? { mark: 'ok', message: report.results[0].message } : { mark: 'info', message: NOTHING_TO_DO };
  }
}

export function responseOutcome(response: CommandResponse): Outcome {
  switch (response.kind) {
    case 'done':
      return reportOutcome(response.report);
    case 'error':
      return response.code === 'cancelled' ? { mark: 'cancel', message: CANCELLED_TEXT } : { mark: 'fail', message: response.message };
    case 'clarification':
      return { mark: clarificationMark(response.question, response.candidates.length), message: response.question };
    case 'confirm':
      return { mark: 'wait', message: `Waiting for your answer: ${response.items.length} to close` };
  }
}

/** What a screen reader hears after a request: every result, in plain words. */
export function announcement(response: CommandResponse): string {
  if (response.kind === 'done') {
    const { report } = response;
    if (report.status === 'cancelled') return CANCELLED_TEXT;
    if (report.status === 'invalid' || report.status === 'unavailable') {
      return `Nothing was changed. ${report.errors.map((e) => e.message).join('. ')}`;
    }
    const lines = report.results.map((r) => `${r.ok ? 'Done' : 'Failed'}: ${r.message}`);
    return lines.length ? lines.join('. ') : 'Done. Nothing to do.';
  }
  if (response.kind === 'clarification') {
    const n = response.candidates.length;
    return n ? `${response.question} ${n} choices.` : response.question;
  }
  if (response.kind === 'confirm') return `Confirm: ${response.items.map((i) => i.summary).join(', ')}`;
  return response.code === 'cancelled' ? CANCELLED_TEXT : `Error: ${response.message}`;
}
