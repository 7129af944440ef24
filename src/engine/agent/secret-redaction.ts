// Hides secret values from text the model reads. A page that got a secret (typed into its
// password field) can show or send it again in another form — btoa() in its title, hex in a
// request URL, percent-encoded in a query string — so each value is looked for as written and in
// the common re-encodings of its UTF-8 bytes:
//   • as written, JSON-escaped, HTML-escaped, reversed;
//   • URL-encoded (encodeURIComponent, "+" for spaces, lowercase escapes) and every byte percent-encoded;
//   • hex, lowercase and uppercase;
//   • base64 and base64url, padded and unpadded, also percent-encoded — and, for a secret embedded
//     in a longer encoded string ("user:" + secret), the characters fully determined by the
//     secret's bytes at each of the three byte offsets within base64's 3-byte groups.
// What is not covered: encryption, hashing, compression, any other encoding (base32, rot13,
// char codes …), a secret split up or cut short (a title clipped mid-way), and encoded forms
// shorter than MIN_ENCODED_CHARS characters (too likely to occur by chance in page text).

/** Encoded forms shorter than this are not looked for: six characters of base64 or hex occur in ordinary text. */
export const MIN_ENCODED_CHARS = 6;
/** Secrets shorter than this are hidden only as written (their encodings are too short to tell apart). */
export const MIN_SECRET_CHARS_FOR_ENCODINGS = 4;

/** What the model writes instead of a secret: {{SECRET:NAME}}. */
export const SECRET_PLACEHOLDER = /\{\{\s*SECRET:([A-Za-z0-9_.-]+)\s*\}\}/g;

const utf8 = (s: string) => new TextEncoder().encode(s);
const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const base64Of = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
const toBase64Url = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const htmlEscaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const lowerEscapes = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/**
 * The base64 characters that only the secret's bytes decide, when it starts `offset` bytes
 * into a 3-byte group of a longer encoded string: characters that straddle a neighbouring
 * byte are left out, since they change with whatever surrounds the secret.
 */
function base64Core(bytes: Uint8Array, offset: 0 | 1 | 2): string {
  const padded = new Uint8Array(offset + bytes.length + 3);
  padded.set(bytes, offset);
  const encoded = base64Of(padded);
  const firstBit = offset * 8;
  const endBit = firstBit + bytes.length * 8;
  return encoded.slice(Math.ceil(firstBit / 6), Math.floor(endBit / 6));
}

/** Every form of `value` that is looked for (the value itself first), without duplicates. */
export function secretForms(value: string): string[] {
  if (!value) return [];
  const forms = new Set<string>([value, JSON.stringify(value).slice(1, -1), htmlEscaped(value)]);
  const uri = encodeURIComponent(value);
  forms.add(uri).add(uri.replace(/%20/g, '+')).add(lowerEscapes(uri));
  if ([...value].length >= MIN_SECRET_CHARS_FOR_ENCODINGS) {
    const encoded = new Set<string>();
    const bytes = utf8(value);
    encoded.add([...value].reverse().join(''));
    const hex = hexOf(bytes);
    encoded.add(hex).add(hex.toUpperCase());
    encoded.add(hex.replace(/../g, '%$&')).add(hex.toUpperCase().replace(/../g, '%$&'));
    const b64 = base64Of(bytes);
    const base64s = [b64, b64.replace(/=+$/, ''), toBase64Url(b64)];
    for (const offset of [0, 1, 2] as const) {
      const core = base64Core(bytes, offset);
      base64s.push(core, toBase64Url(core));
    }
    for (const f of base64s) encoded.add(f).add(encodeURIComponent(f));
    for (const f of encoded) if (f.length >= MIN_ENCODED_CHARS) forms.add(f);
  }
  forms.delete('');
  return [...forms];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface SecretToHide {
  value: string;
  /** What every form of it becomes. */
  replacement: string;
}

/**
 * Replaces every form of every secret in one pass, longest form first ("hunter22" before
 * "hunter2"). Placeholders such as {{SECRET:PW}} are left as they are, so redacting twice
 * changes nothing, even when a secret's value occurs inside a placeholder.
 */
export class SecretRedactor {
  private readonly pattern: RegExp | null;
  private readonly replacements = new Map<string, string>();

  constructor(secrets: Iterable<SecretToHide>) {
    for (const { value, replacement } of secrets) {
      for (const form of secretForms(value)) if (!this.replacements.has(form)) this.replacements.set(form, replacement);
    }
    const forms = [...this.replacements.keys()].sort((a, b) => b.length - a.length);
    this.pattern = forms.length ? new RegExp(`(${SECRET_PLACEHOLDER.source})|${forms.map(escapeRegExp).join('|')}`, 'g') : null;
  }

  redact(text: string): string {
    if (!text || !this.pattern) return text;
    return text.replace(this.pattern, (match: string, placeholder: string | undefined) => placeholder ?? this.replacements.get(match) ?? match);
  }

  /** Every string inside plain objects and arrays, redacted; anything else (an AbortSignal) kept as is. */
  redactAll<T>(value: T): T {
    if (!this.pattern) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((v) => this.walk(v));
    const proto: unknown = value && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
    if (proto === Object.prototype || proto === null) {
      return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, this.walk(v)]));
    }
    return value;
  }
}
