import type { CommandResponse } from '../../../protocol/ipc';
import type { ExecReport } from '../../../protocol/report';
import type { FieldError } from '../../../protocol/validation';

// One line that sums up what a request led to: for history, the live region and headlines.

export type Mark = 'ok' | 'fail' | 'ask' | 'cancel' | 'wait';

export interface Outcome {
  mark: Mark;
  message: string;
}

export const CANCELLED_TEXT = 'Cancelled — nothing was changed.';

export const formatFieldError = (e: FieldError): string => (e.path ? `${e.path}: ${e.message}` : e.message);

export const isCancelledMessage = (message: string): boolean => /^cancel+ed\.?$/i.test(message.trim());

export function reportOutcome(report: ExecReport): Outcome {
  switch (report.status) {
    case 'cancelled':
      return { mark: 'cancel', message: CANCELLED_TEXT };
    case 'clarification':
      return { mark: 'ask', message: report.clarification?.reason ?? 'DeskPilot needs more detail.' };
    case 'invalid':
    case 'unavailable':
      return { mark: 'fail', message: report.errors[0]?.message ?? 'Nothing was run.' };
    case 'failed': {
      const failed = report.results.find((r) => !r.ok);
      return { mark: 'fail', message: failed?.message ?? 'Something failed.' };
    }
    default:
      return { mark: 'ok', message: report.results[0]?.message ?? 'Nothing to do.' };
  }
}

export function responseOutcome(response: CommandResponse): Outcome {
  switch (response.kind) {
    case 'done':
      return reportOutcome(response.report);
    case 'error':
      return isCancelledMessage(response.message) ? { mark: 'cancel', message: CANCELLED_TEXT } : { mark: 'fail', message: response.message };
    case 'clarification':
      return { mark: 'ask', message: response.question };
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
  return isCancelledMessage(response.message) ? CANCELLED_TEXT : `Error: ${response.message}`;
}
