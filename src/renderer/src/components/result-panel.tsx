import { resultBadge } from '../lib/devices';
import { CANCELLED_TEXT } from '../lib/outcome';
import { sourceLabel } from '../state/command-source';
import { useCommandStore } from '../state/command-store';
import { ClarificationView } from './clarification-view';
import { FixHint } from './fix-hint';
import { LaunchNote } from './launch-chrome-button';
import { Mark } from './mark';
import { ReportView } from './report-view';
import { Spinner } from './spinner';

// Below the field: what the current request is doing or how it ended. Announcements go
// through the live region; this panel is what the eye sees.

export function ResultPanel() {
  const phase = useCommandStore((s) => s.phase);
  if (phase.kind === 'idle') return <LaunchNote />;
  // The confirmation dialog says it all while it is open.
  if (phase.kind === 'confirm') return null;

  return (
    <section className={`result-panel scroll-fade is-${phase.kind}`} aria-label="Result" data-phase={phase.kind}>
      {phase.source.kind === 'preset' && <p className="result-source">{sourceLabel(phase.source)}</p>}
      {phase.kind === 'working' && (
        <div className="working">
          <Spinner />
          <span>{phase.label}</span>
          {phase.note && <span className="working-note">{phase.note}</span>}
        </div>
      )}
      {phase.kind === 'clarification' && <ClarificationView question={phase.question} candidates={phase.candidates} />}
      {phase.kind === 'done' && phase.device && <p className="result-device">{resultBadge(phase.device)}</p>}
      {phase.kind === 'done' && <ReportView report={phase.report} />}
      {phase.kind === 'error' && (
        <div className="result-line is-fail">
          <Mark kind="fail" />
          <div className="result-body">
            <span className="result-message">{phase.message}</span>
            <FixHint code={phase.code} />
          </div>
        </div>
      )}
      {phase.kind === 'cancelled' && (
        <p className="result-line cancelled">
          <Mark kind="cancel" />
          <span className="result-message">{CANCELLED_TEXT}</span>
        </p>
      )}
    </section>
  );
}
