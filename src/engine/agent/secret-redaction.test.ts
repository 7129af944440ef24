import { describe, expect, it } from 'vitest';
import { Secrets } from './safety';
import { MIN_ENCODED_CHARS } from './secret-redaction';

// Each encoding a page could re-apply to a secret it was given, checked on its own. The
// encodings are computed here with Node's Buffer, independently of the redactor's own code.

const SECRET = 'Tr0ub4dor&3 "x"\\ü';
const PH = '{{SECRET:PW}}';
const secrets = new Secrets({ PW: SECRET });
const redact = (s: string) => secrets.redact(s);
const bytes = Buffer.from(SECRET, 'utf8');

/** Any base64 run in the text that still decodes (from any of its first four characters) to something holding the secret. */
function base64Leak(text: string): string | null {
  const needle = bytes.toString('latin1');
  for (const run of text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? []) {
    const std = run.replace(/-/g, '+').replace(/_/g, '/');
    for (let shift = 0; shift < 4; shift++) {
      if (Buffer.from(std.slice(shift), 'base64').toString('latin1').includes(needle)) return run;
    }
  }
  return null;
}

describe('secret redaction: one form at a time', () => {
  it('as written, JSON-escaped and HTML-escaped', () => {
    expect(redact(`a ${SECRET} b`)).toBe(`a ${PH} b`);
    expect(redact(`{"v":${JSON.stringify(SECRET)}}`)).toBe(`{"v":"${PH}"}`);
    const html = SECRET.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    expect(redact(`<b title="${html}">`)).toBe(`<b title="${PH}">`);
  });

  it('reversed', () => {
    expect(redact(`t=${[...SECRET].reverse().join('')};`)).toBe(`t=${PH};`);
  });

  it('URL-encoded: encodeURIComponent, + for spaces, lowercase escapes', () => {
    const uri = encodeURIComponent(SECRET);
    expect(redact(`/x?q=${uri}&n=1`)).toBe(`/x?q=${PH}&n=1`);
    expect(redact(`q=${uri.replace(/%20/g, '+')}`)).toBe(`q=${PH}`);
    expect(redact(`q=${uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`)).toBe(`q=${PH}`);
  });

  it('percent-encoded byte by byte, upper and lower case', () => {
    const every = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    expect(redact(`q=${every}`)).toBe(`q=${PH}`);
    expect(redact(`q=${every.toUpperCase()}`)).toBe(`q=${PH}`);
  });

  it('hex, lower and upper case', () => {
    const hex = bytes.toString('hex');
    expect(redact(`/collect?h=${hex}`)).toBe(`/collect?h=${PH}`);
    expect(redact(`H:${hex.toUpperCase()}.`)).toBe(`H:${PH}.`);
  });

  it('base64 and base64url of the secret alone, padded or not, and percent-encoded', () => {
    const b64 = bytes.toString('base64');
    const url = bytes.toString('base64url');
    for (const form of [b64, b64.replace(/=+$/, ''), url, encodeURIComponent(b64)]) {
      const out = redact(`title: ${form}!`);
      expect(out, form).toContain(PH);
      expect(out, form).not.toContain(form);
      expect(base64Leak(out), form).toBeNull();
    }
    expect(redact(`[${b64}]`)).toBe(`[${PH}]`);
  });

  it('base64 and base64url of the secret inside a longer string, at each of the three byte alignments', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:', 'Basic 123']) {
      for (const suffix of ['', '!', '!!', ':tail']) {
        const whole = Buffer.from(`${prefix}${SECRET}${suffix}`, 'utf8');
        for (const form of [whole.toString('base64'), whole.toString('base64url')]) {
          expect(base64Leak(form), `${prefix}|${suffix}`).not.toBeNull(); // the check itself finds it unredacted
          const out = redact(`auth=${form}`);
          expect(out, `${prefix}|${suffix}`).toContain(PH);
          expect(base64Leak(out), `${prefix}|${suffix}`).toBeNull();
        }
      }
    }
  });

  it('leaves placeholders, ordinary text and short coincidences alone; redacting twice changes nothing', () => {
    const once = redact(`${SECRET} and ${PH} and hello world 123456`);
    expect(once).toBe(`${PH} and ${PH} and hello world 123456`);
    expect(redact(once)).toBe(once);
    // A secret that occurs inside the placeholder text itself.
    const odd = new Secrets({ S: 'SECRET' });
    expect(odd.redact('SECRET {{SECRET:S}}')).toBe('{{SECRET:S}} {{SECRET:S}}');
  });

  it('longest form first, several secrets at once', () => {
    const r = new Secrets({ A: 'hunter2', B: 'hunter22' });
    expect(r.redact('hunter22 hunter2 ' + Buffer.from('hunter22').toString('hex'))).toBe('{{SECRET:B}} {{SECRET:A}} {{SECRET:B}}');
  });

  it('what is not covered: short secrets only as written, encoded forms below the minimum, other encodings', () => {
    const short = new Secrets({ PW: 'abc' });
    expect(short.redact('abc 616263 YWJj cba')).toBe(`${PH} 616263 YWJj cba`);
    expect(MIN_ENCODED_CHARS).toBe(6);
    const base32ish = 'KRZDA5LCGRSG64RGGM'; // base32 of a prefix: not one of the forms
    expect(redact(base32ish)).toBe(base32ish);
  });

  it('redactAll walks plain objects and arrays and keeps other objects as they are', () => {
    const signal = new AbortController().signal;
    const req = { goal: `use ${SECRET}`, signal, history: [{ output: bytes.toString('hex'), n: 3 }], none: null };
    const out = secrets.redactAll(req);
    expect(out).toEqual({ goal: `use ${PH}`, signal, history: [{ output: PH, n: 3 }], none: null });
    expect(out.signal).toBe(signal);
    expect(req.goal).toBe(`use ${SECRET}`); // the input is not changed
  });
});
