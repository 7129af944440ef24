import type { ClarificationCandidate } from '../../../protocol/ipc';
import { useCommandStore } from '../state/command-store';

// The planner’s question. With candidates: one numbered button each;
// without: the question alone, and the field stays focused for rephrasing.

export function ClarificationView({ question, candidates }: { question: string; candidates: ClarificationCandidate[] }) {
  const choose = useCommandStore((s) => s.choose);
  return (
    <div className="clarification">
      <p className="question" id="clarification-question">
        {question}
      </p>
      {candidates.length > 0 ? (
        <ul className="candidates" role="list" aria-labelledby="clarification-question">
          {candidates.map((c, i) => (
            <li key={i}>
              <button type="button" className="candidate" onClick={() => void choose(i)}>
                <span className="candidate-index" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="candidate-label">{c.label}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">Say it another way in the field above.</p>
      )}
    </div>
  );
}
