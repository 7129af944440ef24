// An app bundle's Info.plist, in either of Apple's forms: XML (most apps) or binary ("bplist00…",
// which Xcode writes for many apps, Apple's own among them). Read with maintained parsers —
// plist for XML, bplist-parser for binary — loaded at the first read: only macOS reads app
// bundles, so other platforms never load them (the CLI build keeps both out of its bundle).

const BINARY_MAGIC = 'bplist00';

const isDictionary = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v) && !(v instanceof Date);

async function parseEitherForm(data: Buffer): Promise<unknown> {
  if (data.subarray(0, BINARY_MAGIC.length).toString('latin1') === BINARY_MAGIC) {
    const { parseBuffer } = await import('bplist-parser');
    return parseBuffer(data)[0];
  }
  // Only what looks like XML goes to the XML parser: it reports what it cannot parse on the console.
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  if (!text.trimStart().startsWith('<')) return null;
  const { parse } = await import('plist');
  return parse(text);
}

/**
 * The string values of the top-level dictionary of a plist, e.g. CFBundleName. null when the data
 * is not a plist (malformed, truncated) or its root is not a dictionary. Values in nested
 * dictionaries and arrays are not included, so their keys (CFBundleTypeName, …) never shadow
 * the bundle's own.
 */
export async function readPlistStrings(data: Buffer | string): Promise<Map<string, string> | null> {
  let root: unknown;
  try {
    root = await parseEitherForm(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  } catch {
    return null;
  }
  if (!isDictionary(root)) return null;
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(root)) if (typeof value === 'string') out.set(key, value);
  return out;
}
