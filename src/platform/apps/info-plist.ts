// Just enough of Apple's XML property lists to read an app bundle's Info.plist.

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return ENTITIES[ref] ?? whole;
  });
}

/**
 * The string values of the top-level dictionary of an XML plist, e.g. CFBundleName. null for
 * anything else: binary plists ("bplist00…") and malformed text. Nested dictionaries and arrays
 * are skipped, so their keys (CFBundleTypeName, …) never shadow the bundle's own.
 */
export function readPlistStrings(data: Buffer | string): Map<string, string> | null {
  const raw = typeof data === 'string' ? data : data.toString('utf8');
  if (raw.startsWith('bplist')) return null;
  const text = raw.replace(/<!--[\s\S]*?-->/g, '');
  const out = new Map<string, string>();
  const tag = /<(\/?)([A-Za-z]+)[^>]*?(\/?)>/g;
  let depth = 0; // nesting of dict/array; the top-level dict is depth 1
  let sawRoot = false;
  let pendingKey: string | null = null;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const [, closing, name, selfClosing] = m;
    if (name === 'dict' || name === 'array') {
      if (selfClosing) {
        pendingKey = null;
        continue;
      }
      if (closing) depth--;
      else {
        if (depth === 1) pendingKey = null; // a nested container is this key's value
        depth++;
        sawRoot ||= name === 'dict';
      }
      continue;
    }
    if (depth !== 1 || closing || selfClosing) {
      if (depth === 1 && selfClosing) pendingKey = null; // <true/>, <string/>…
      continue;
    }
    const end = text.indexOf(`</${name}>`, tag.lastIndex);
    if (end < 0) return null;
    const content = decodeXmlText(text.slice(tag.lastIndex, end));
    tag.lastIndex = end + name!.length + 3;
    if (name === 'key') pendingKey = content.trim();
    else {
      if (name === 'string' && pendingKey !== null && !out.has(pendingKey)) out.set(pendingKey, content);
      pendingKey = null;
    }
  }
  return sawRoot ? out : null;
}
