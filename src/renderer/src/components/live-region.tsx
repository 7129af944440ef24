import { useAnnouncer } from '../state/announcer-store';

/** The one polite live region: results and questions are read out when they arrive. */
export function LiveRegion() {
  const message = useAnnouncer((s) => s.message);
  return (
    <div className="sr-only" aria-live="polite" aria-atomic="true" data-testid="announcer">
      {message}
    </div>
  );
}
