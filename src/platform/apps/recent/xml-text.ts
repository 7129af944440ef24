// The little XML the recent-item files need: attributes of one tag, with entities decoded.
// Both files are machine-written and flat (GLib's bookmark file, an IDE's options file), so
// tags are found by pattern; a file that does not match simply yields nothing.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (whole, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? whole;
  });
}

/** name → value of the attributes in a tag's text (`<bookmark href="…" modified="…">` → href, modified). */
export function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    out.set(m[1]!, decodeEntities(m[2] ?? m[3] ?? ''));
  }
  return out;
}
