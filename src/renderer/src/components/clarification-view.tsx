import type { ClarificationCandidate } from '../../../protocol/ipc';
import { clarificationMark, shortQuestion } from '../lib/outcome';
import { useCommandStore } from '../state/command-store';
import { tidyMessage } from '../live/site';
import { Mark } from './mark';

// The planner’s question. With candidates: one numbered button each, and the question
// shortened when it only lists those same candidates ("Which tab: 2 … or 4 …?" → "Which
// tab?"); screen readers still get the whole text, which also labels the list. Without
// candidates: the question alone, and the field stays focused for rephrasing.

export function ClarificationView({ question, candidates }: { question: string; candidates: ClarificationCandidate[] }) {
  const choose = useCommandStore((s) => s.choose);
  const short = candidates.length > 0 ? shortQuestion(question) : null;
  return (
    <div className="clarification">
      <div className="result-line">
        <Mark kind={clarificationMark(question, candidates.length)} />
        <div className="result-body">
          {short ? (
            <>
              <p className="question" aria-hidden="true" title={tidyMessage(question)}>
                {tidyMessage(short)}
              </p>
              <p className="sr-only" id="clarification-question">
                {tidyMessage(question)}
              </p>
            </>
          ) : (
            <p className="question" id="clarification-question">
              {tidyMessage(question)}
            </p>
          )}
          {candidates.length === 0 && <p className="hint">Say it another way in the field above.</p>}
        </div>
      </div>
      {candidates.length > 0 && (
        <ul className="candidates" role="list" aria-labelledby="clarification-question">
          {candidates.map((c, i) => (
            <li key={i}>
              <button type="button" className="candidate" title={tidyMessage(c.label)} onClick={() => void choose(i)}>
                <span className="candidate-index" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="candidate-label">{tidyMessage(c.label)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
