import { mapLimit, type CdpConnection } from './cdp-connection';
import { withoutDevtoolsSockets } from './agent/request-guard';
import { evaluateInPage, TIMED_OUT } from './evaluate';

// Searching the text of open pages: each tab's visible text is read once (document.body
// innerText, cut to MAX_CHARS_PER_TAB) and kept per target and address, for at most MAX_TABS
// tabs and MAX_AGE_MS — a page's text changes without its address changing, so an entry is
// read again after a while. Least recently used entries go first when the index is full.

export const MAX_CHARS_PER_TAB = 100_000;
export const MAX_TABS = 400;
const MAX_AGE_MS = 5 * 60_000;
const READ_TIMEOUT_MS = 2_000;
const READ_CONCURRENCY = 8;
const EXCERPT_CHARS = 60;

const TEXT_EXPRESSION = `(() => {
  const b = document.body;
  const t = b ? (b.innerText || b.textContent || '') : '';
  return { text: t.slice(0, ${MAX_CHARS_PER_TAB}), complete: document.readyState === 'complete' };
})()`;

interface Entry {
  url: string;
  /** Lower-cased with whitespace squeezed, for matching; excerpts come from the same string. */
  text: string;
  at: number;
}

export interface IndexStats {
  /** Tabs whose text was read in the last search (not served from the index). */
  read: number;
  /** Milliseconds the last search spent reading page text. */
  readMs: number;
  entries: number;
}

export class PageTextIndex {
  private readonly entries = new Map<string, Entry>();
  private last: IndexStats = { read: 0, readMs: 0, entries: 0 };

  constructor(private readonly now: () => number = Date.now) {}

  get stats(): IndexStats {
    return { ...this.last, entries: this.entries.size };
  }

  /** The targets whose page text holds every word of `query`, each with an excerpt around the first word. */
  async search(conn: CdpConnection, targets: ReadonlyArray<{ targetId: string; url: string }>, query: string): Promise<Map<string, string>> {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const started = this.now();
    const stale = targets.filter((t) => !this.fresh(t.targetId, t.url));
    await mapLimit(stale, READ_CONCURRENCY, async (t) => this.read(conn, t.targetId, t.url));
    this.last = { read: stale.length, readMs: this.now() - started, entries: this.entries.size };
    const out = new Map<string, string>();
    for (const t of targets) {
      const e = this.entries.get(t.targetId);
      if (!e || e.url !== t.url || words.length === 0 || !words.every((w) => e.text.includes(w))) continue;
      out.set(t.targetId, excerpt(e.text, words[0]!));
    }
    return out;
  }

  /** Drops entries of targets that no longer exist. */
  retain(live: ReadonlySet<string>): void {
    for (const id of this.entries.keys()) if (!live.has(id)) this.entries.delete(id);
  }

  private fresh(targetId: string, url: string): boolean {
    const e = this.entries.get(targetId);
    if (!e || e.url !== url || this.now() - e.at > MAX_AGE_MS) return false;
    // Used again: to the back of the eviction order.
    this.entries.delete(targetId);
    this.entries.set(targetId, e);
    return true;
  }

  private async read(conn: CdpConnection, targetId: string, url: string): Promise<void> {
    let value: unknown;
    try {
      value = await evaluateInPage(conn, targetId, TEXT_EXPRESSION, READ_TIMEOUT_MS);
    } catch {
      return; // closed meanwhile, or a page that refuses evaluation
    }
    if (value === TIMED_OUT || typeof value !== 'object' || value === null) return;
    const { text, complete } = value as { text?: unknown; complete?: unknown };
    if (typeof text !== 'string') return;
    const entry = { url, text: withoutDevtoolsSockets(text).replace(/\s+/g, ' ').toLowerCase(), at: complete === true ? this.now() : 0 };
    this.entries.delete(targetId);
    this.entries.set(targetId, entry);
    while (this.entries.size > MAX_TABS) this.entries.delete(this.entries.keys().next().value!);
  }
}

function excerpt(text: string, word: string): string {
  const at = text.indexOf(word);
  const from = Math.max(0, at - EXCERPT_CHARS);
  return text.slice(from, at + word.length + EXCERPT_CHARS).trim();
}
