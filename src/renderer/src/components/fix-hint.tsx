import { fixFor } from '../lib/fix-hint';
import { LaunchChromeButton } from './launch-chrome-button';

/** Under a failed line: what to do about it, when there is something to do. */
export function FixHint({ code }: { code?: string }) {
  const fix = fixFor(code);
  if (!fix) return null;
  if (fix.kind === 'launch-chrome') {
    return (
      <div className="fix">
        <LaunchChromeButton compact />
        <span>then run it again.</span>
      </div>
    );
  }
  return <div className="fix">{fix.text}</div>;
}
