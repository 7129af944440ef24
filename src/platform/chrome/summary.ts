import type { CdpConnection } from './cdp-connection';
import { withoutDevtoolsSockets } from './agent/request-guard';
import { evaluateInPage, TIMED_OUT } from './evaluate';

export const SUMMARY_MAX_CHARS = 200;
export const SUMMARY_MAX_WORDS = 30;

// Runs inside the page: meta description, else the first words of the visible text. Bounded on
// the page side too, so a huge page does not ship megabytes over the socket.
export const SUMMARY_EXPRESSION = `(() => {
  const clip = (s) => String(s || '').replace(/\\s+/g, ' ').trim();
  const meta = document.querySelector('meta[name="description" i], meta[property="og:description" i]');
  let text = meta ? clip(meta.getAttribute('content')) : '';
  if (!text && document.body) text = clip(document.body.innerText.slice(0, 4000)).split(' ').slice(0, ${SUMMARY_MAX_WORDS}).join(' ');
  return { text: text.slice(0, ${SUMMARY_MAX_CHARS}), complete: document.readyState === 'complete' };
})()`;

export function cleanSummary(value: unknown): { text: string | null; complete: boolean } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { text, complete } = value as Record<string, unknown>;
  if (typeof text !== 'string') return null;
  // A page may show DevTools addresses or tab ids (a listing it was sent to): never passed on.
  const clipped = withoutDevtoolsSockets(text).replace(/\s+/g, ' ').trim().slice(0, SUMMARY_MAX_CHARS);
  return { text: clipped === '' ? null : clipped, complete: complete === true };
}

/**
 * Summaries cached per target and URL. Only answers from a fully loaded document are cached: a
 * page still loading may show nothing yet, and a timeout may be a page that recovers.
 */
export interface SummaryEntry {
  url: string;
  text: string | null;
}

export class SummaryCache {
  private readonly byTarget = new Map<string, SummaryEntry>();
  /** Whether an entry was added or dropped since `takeChanged` last asked. */
  private changed = false;

  async summarize(
    conn: CdpConnection,
    targets: ReadonlyArray<{ targetId: string; url: string }>,
    timeoutMs: number,
  ): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    await Promise.all(
      targets.map(async ({ targetId, url }) => {
        const hit = this.byTarget.get(targetId);
        if (hit && hit.url === url) {
          out.set(targetId, hit.text);
          return;
        }
        let value: unknown;
        try {
          value = await evaluateInPage(conn, targetId, SUMMARY_EXPRESSION, timeoutMs);
        } catch {
          value = null; // closed meanwhile, or a page that refuses evaluation (e.g. a crashed renderer)
        }
        const summary = value === TIMED_OUT ? null : cleanSummary(value);
        out.set(targetId, summary?.text ?? null);
        if (summary?.complete) {
          this.byTarget.set(targetId, { url, text: summary.text });
          this.changed = true;
        }
      }),
    );
    return out;
  }

  /** Drops entries of targets that no longer exist. */
  retain(liveTargetIds: ReadonlySet<string>): void {
    for (const id of this.byTarget.keys()) {
      if (!liveTargetIds.has(id)) {
        this.byTarget.delete(id);
        this.changed = true;
      }
    }
  }

  /** Summaries kept by an earlier process (browser-run-cache.ts); used only for the same page at the same address. */
  seed(entries: Iterable<[string, SummaryEntry]>): void {
    for (const [id, entry] of entries) if (!this.byTarget.has(id)) this.byTarget.set(id, entry);
  }

  entries(): IterableIterator<[string, SummaryEntry]> {
    return this.byTarget.entries();
  }

  /** Whether the cache changed since the last call (so a caller keeping a copy knows when to write it). */
  takeChanged(): boolean {
    const c = this.changed;
    this.changed = false;
    return c;
  }
}
