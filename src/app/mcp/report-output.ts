import type { Prepared } from '../../engine/prepare';
import type { PreparedBatch } from '../../protocol/prepared-batch';
import type { ExecReport } from '../../protocol/report';
import { ToolError, type ToolOutput } from './tool-error';

// The engine's report in a tool's words. Field paths lose the "commands[0]." of the batch a
// single tool call becomes, so an error names the tool's own argument ("app_name: …").

const fieldPath = (path: string, single: boolean) => (single ? path.replace(/^commands\[0\]\.?/, '') : path);

/** Nothing ran (bad argument, backend down, a question back): the reasons, as a ToolError. */
export function notRunError(report: ExecReport, single: boolean): ToolError {
  if (report.status === 'clarification') return new ToolError(`Nothing was done: ${report.clarification?.reason ?? 'the request is unclear'}`, 'clarification');
  const reasons = report.errors.map((e) => (fieldPath(e.path, single) ? `${fieldPath(e.path, single)}: ${e.message}` : e.message));
  const what = report.status === 'unavailable' ? 'unavailable' : 'invalid_argument';
  return new ToolError(`Nothing was done. ${reasons.join('; ') || report.status}`, what, { errors: reasons });
}

/** The prepared batch, or the reasons it could not be prepared. */
export function batchOf(prepared: Prepared, single = true): PreparedBatch {
  if (!prepared.ok) throw notRunError(prepared.report, single);
  return prepared.batch;
}

/** What ran and how it went; a command that failed makes the whole answer an error. */
export function reportOutput(report: ExecReport, single = true): ToolOutput {
  if (report.status === 'invalid' || report.status === 'unavailable' || report.status === 'clarification') throw notRunError(report, single);
  const failed = report.results.some((r) => !r.ok);
  const lines = report.results.map((r) => (report.results.length === 1 && r.ok ? r.message : `${r.ok ? '✓' : '✗'} ${r.message}`));
  if (report.status === 'cancelled') lines.push('Cancelled: nothing was done.');
  for (const w of report.warnings) lines.push(`note: ${w}`);
  return {
    text: lines.join('\n') || 'Nothing to do.',
    data: {
      status: report.status,
      results: report.results.map((r) => ({ type: r.type, ok: r.ok, message: r.message, ...(r.code ? { code: r.code } : {}), ...(r.data !== undefined ? { data: r.data } : {}) })),
      ...(report.warnings.length ? { warnings: report.warnings } : {}),
    },
    ...(failed ? { isError: true } : {}),
  };
}
