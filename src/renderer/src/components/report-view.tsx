import type { ExecReport } from '../../../protocol/report';
import { clarificationMark, formatFieldError, NOTHING_TO_DO } from '../lib/outcome';
import { FixHint } from './fix-hint';
import { LaunchNote } from './launch-chrome-button';
import { tidyMessage } from '../live/site';
import { Mark } from './mark';

// A finished request: one line per command with ✓/✗ and its message, what to do about a
// failure, then errors and (small) warnings. Every line has a mark: a report with nothing
// in it says so with an info mark, a question the planner asked gets ? (or ✗ when it is a
// statement that nothing matched).

function headline(report: ExecReport): string | null {
  const total = report.results.length;
  const ok = report.results.filter((r) => r.ok).length;
  if (report.status === 'invalid' || report.status === 'unavailable') return 'Nothing was changed.';
  if (report.status === 'dry_run') return 'Checked only — nothing was run.';
  if (report.status === 'failed' && total > 1) return `${ok} of ${total} done.`;
  return null;
}

const question = (report: ExecReport): string => report.clarification?.reason ?? 'DeskPilot needs more detail.';

export function ReportView({ report }: { report: ExecReport }) {
  const errorTexts = new Set(report.errors.map(formatFieldError));
  const warnings = report.warnings.filter((w) => !errorTexts.has(w));
  const head = headline(report);

  return (
    <div className={`report report-${report.status}`} data-status={report.status}>
      {head && <p className="report-headline">{head}</p>}
      {report.results.length === 0 && report.errors.length === 0 && (report.status === 'clarification' || !head) && (
        <ul className="result-lines" aria-label="Results">
          {report.status === 'clarification' ? (
            <li className="result-line is-ask">
              <Mark kind={clarificationMark(question(report))} />
              <div className="result-body">
                <span className="result-message">{tidyMessage(question(report))}</span>
              </div>
            </li>
          ) : (
            <li className="result-line is-info">
              <Mark kind="info" />
              <div className="result-body">
                <span className="result-message">{NOTHING_TO_DO}</span>
              </div>
            </li>
          )}
        </ul>
      )}
      {(report.results.length > 0 || report.errors.length > 0) && (
        <ul className="result-lines" aria-label="Results">
          {report.results.map((r) => (
            <li key={`r${r.index}`} className={`result-line ${r.ok ? 'is-ok' : 'is-fail'}`}>
              <Mark kind={r.ok ? 'ok' : 'fail'} />
              <div className="result-body">
                <span className="result-message">{tidyMessage(r.message)}</span>
                {!r.ok && <FixHint code={r.code} />}
              </div>
            </li>
          ))}
          {report.errors.map((e, i) => (
            <li key={`e${i}`} className="result-line is-fail" title={e.path || undefined}>
              <Mark kind="fail" />
              <div className="result-body">
                <span className="result-message">{tidyMessage(e.message)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <LaunchNote />
      {warnings.length > 0 && (
        <ul className="warnings" aria-label="Warnings">
          {warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
