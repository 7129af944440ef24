// Privacy filters for what leaves a page towards the model: PII masking (emails, payment card
// numbers, phone numbers) and secret redaction in request bodies and URLs.

import { SecretRedactor } from '../../../engine/agent/secret-redaction';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** 13–19 digits, optionally grouped by single spaces or dashes. */
const CARD = /\b\d(?:[ -]?\d){12,18}\b/g;
/**
 * Phone-looking runs: an optional +country code, optional (area), then digit groups joined by
 * spaces, dots or dashes. Plain digit runs without any separator or "+" are not masked (they are
 * usually ids, prices or order numbers); the digit count must be 7–15.
 */
const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d{2,5}(?:[\s.-]\d{2,5}){1,4}\b|\+\d{7,15}\b/g;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Masks emails, Luhn-valid card numbers and phone numbers in free text. */
export function maskPii(text: string): string {
  if (!text) return text;
  let out = text.replace(EMAIL, '[email]');
  out = out.replace(CARD, (m) => {
    const digits = m.replace(/\D/g, '');
    return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? '[card number]' : m;
  });
  out = out.replace(PHONE, (m) => {
    const digits = m.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) return m;
    // Dates (2024-05-01, 01.05.2024) and times are not phone numbers.
    if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$/.test(m) || /^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/.test(m)) return m;
    return '[phone]';
  });
  return out;
}

/** Masks a field's value given what the field is (autocomplete/type say card or phone even when the text does not). */
export function maskFieldValue(value: string, hints: { type?: string; autocomplete?: string }): string {
  if (!value) return value;
  const ac = (hints.autocomplete ?? '').toLowerCase();
  if (/cc-(number|csc)/.test(ac)) return '[card data]';
  if (/cc-exp/.test(ac)) return '[card expiry]';
  if (hints.type === 'tel' || /\btel\b/.test(ac)) return '[phone]';
  if (hints.type === 'email' || /\bemail\b/.test(ac)) return '[email]';
  return maskPii(value);
}

/** Names of fields whose values are secrets wherever they appear (bodies, query strings). */
export const SECRET_KEY =
  /pass(word|wd|phrase)?|pwd|secret|token|^otp$|one[-_]?time|^pin$|[-_]pin$|cvc|cvv|csc|security[-_]?code|^auth$|authori[sz]ation|session[-_]?(id|key|token)|api[-_]?key|credential|card[-_]?number|ccnum|^iban$/i;

const REDACTED = '[redacted]';

function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_KEY.test(k) && v !== null && v !== '' ? REDACTED : redactJson(v);
    return out;
  }
  return value;
}

/**
 * Redacts secrets from a request body: JSON and form-encoded bodies by field name, anything else
 * by `name=value` / `"name": "value"` patterns; then removes any of `secrets` (values typed into
 * password fields) wherever they still occur.
 */
export function redactBody(body: string, secrets: Iterable<string> = []): string {
  let out = body;
  const trimmed = body.trim();
  let done = false;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      out = JSON.stringify(redactJson(JSON.parse(trimmed)));
      done = true;
    } catch {
      // not JSON after all
    }
  }
  if (!done && /^[^\s=&]+=[^&]*(&[^\s=&]+=[^&]*)*$/.test(trimmed)) {
    out = trimmed
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const key = decodeSafe(pair.slice(0, eq));
        return SECRET_KEY.test(key) && pair.length > eq + 1 ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
      })
      .join('&');
    done = true;
  }
  if (!done) {
    out = out
      .replace(/("([^"\\]{0,60})"\s*:\s*)"(?:[^"\\]|\\.)*"/g, (m, head: string, key: string) => (SECRET_KEY.test(key) ? `${head}"${REDACTED}"` : m))
      .replace(/\b([\w.-]{1,60})=([^&\s";,]+)/g, (m, key: string) => (SECRET_KEY.test(key) ? `${key}=${REDACTED}` : m));
  }
  return removeSecrets(out, secrets);
}

/** Redacts secret-named query parameters of a URL (path and other parameters unchanged). */
export function redactUrl(url: string, secrets: Iterable<string> = []): string {
  const q = url.indexOf('?');
  if (q < 0) return removeSecrets(url, secrets);
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      return SECRET_KEY.test(decodeSafe(pair.slice(0, eq))) && pair.length > eq + 1 ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
  return removeSecrets(`${url.slice(0, q)}?${redacted}${hash < 0 ? '' : url.slice(hash)}`, secrets);
}

/**
 * Removes the values typed into password fields wherever they occur, also re-encoded (base64,
 * hex, URL-encoding …: the same forms the agent loop hides, see secret-redaction.ts). Values
 * shorter than 3 characters are left alone: they would blank out ordinary text.
 */
export function removeSecrets(text: string, secrets: Iterable<string>): string {
  if (!text) return text;
  const values = [...secrets].filter((s) => s.length >= 3);
  return values.length ? redactorFor(values).redact(text) : text;
}

// A snapshot calls removeSecrets once per element: the redactor for the same values is reused.
let lastRedactor: { key: string; redactor: SecretRedactor } | null = null;
function redactorFor(values: string[]): SecretRedactor {
  const key = JSON.stringify(values);
  if (lastRedactor?.key !== key) lastRedactor = { key, redactor: new SecretRedactor(values.map((value) => ({ value, replacement: REDACTED }))) };
  return lastRedactor.redactor;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
