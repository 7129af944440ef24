import type { Mark as MarkKind } from '../lib/outcome';

// ✓ / ✗ / ? / i with the same meaning in words for screen readers.

const GLYPH: Record<MarkKind, string> = { ok: '✓', fail: '✗', ask: '?', info: 'i', cancel: '–', wait: '…' };
const WORDS: Record<MarkKind, string> = { ok: 'Done:', fail: 'Failed:', ask: 'Question:', info: 'Note:', cancel: 'Cancelled:', wait: 'Waiting:' };

export function Mark({ kind, id }: { kind: MarkKind; id?: string }) {
  return (
    <span className={`mark mark-${kind}`} id={id}>
      <span aria-hidden="true">{GLYPH[kind]}</span>
      <span className="sr-only">{WORDS[kind]}</span>
    </span>
  );
}
