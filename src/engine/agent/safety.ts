// The agent loop's safety rules, each a small pure function: domain allow/deny lists, named
// secrets (substituted only when typing, redacted from everything the model sees), and the
// wrapper that marks page text as data.

import { SECRET_PLACEHOLDER, SecretRedactor } from './secret-redaction';

// ---- domains ----

/** The lowercase host of an http(s) URL; null for about:blank and anything else without one. */
export function hostOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.toLowerCase().replace(/^\[|\]$/g, '') : null;
  } catch {
    return null;
  }
}

/** "https://*.Example.com/x" → "example.com": list entries are domains, written however. */
export function domainEntry(entry: string): string {
  let e = entry.trim().toLowerCase();
  e = e.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/?#].*$/, '').replace(/:\d+$/, '');
  return e.replace(/^\*?\./, '').replace(/\.$/, '');
}

const hostMatches = (host: string, entry: string) => host === entry || host.endsWith(`.${entry}`);

export interface DomainPolicy {
  allow?: readonly string[];
  deny?: readonly string[];
}

/** Why this URL may not be used, or null when it may. Pages without a host (about:blank) pass. */
export function domainProblem(url: string, policy: DomainPolicy): string | null {
  const host = hostOf(url);
  if (host === null) return null;
  const deny = (policy.deny ?? []).map(domainEntry).filter(Boolean);
  const hit = deny.find((d) => hostMatches(host, d));
  if (hit) return `${host} is on the deny list (${hit})`;
  const allow = (policy.allow ?? []).map(domainEntry).filter(Boolean);
  if (allow.length > 0 && !allow.some((d) => hostMatches(host, d))) return `${host} is not on the allow list (${allow.join(', ')})`;
  return null;
}

// ---- secrets ----

const PLACEHOLDER = SECRET_PLACEHOLDER;
export const placeholder = (name: string) => `{{SECRET:${name}}}`;

export class Secrets {
  private readonly entries: Array<[name: string, value: string]>;
  private readonly redactor: SecretRedactor;

  constructor(secrets: Record<string, string> = {}) {
    this.entries = Object.entries(secrets).filter(([, v]) => typeof v === 'string' && v.length > 0);
    this.redactor = new SecretRedactor(this.entries.map(([name, value]) => ({ value, replacement: placeholder(name) })));
  }

  names(): string[] {
    return this.entries.map(([n]) => n);
  }

  /** Whether the text names any secret placeholder. */
  uses(text: string): boolean {
    return new RegExp(PLACEHOLDER.source).test(text);
  }

  /** The secret names a text's placeholders refer to, as written. */
  namesIn(text: string): string[] {
    return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
  }

  /** Placeholders → values, for the browser only; an unknown name is an error for the model. */
  substitute(text: string): { ok: true; text: string } | { ok: false; error: string } {
    const unknown: string[] = [];
    const out = text.replace(PLACEHOLDER, (whole, name: string) => {
      const found = this.entries.find(([n]) => n === name) ?? this.entries.find(([n]) => n.toLowerCase() === name.toLowerCase());
      if (!found) unknown.push(name);
      return found ? found[1] : whole;
    });
    if (unknown.length === 0) return { ok: true, text: out };
    const known = this.names();
    return {
      ok: false,
      error: `Secret ${unknown.map((n) => `"${n}"`).join(', ')} is not defined. ${known.length ? `Available secrets: ${known.map((n) => placeholder(n)).join(', ')}` : 'No secrets are available.'}`,
    };
  }

  /** Values → placeholders, also re-encoded (see secret-redaction.ts), for everything shown to the model or logged. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** `redact` on every string of a request (plain objects and arrays), before it goes to the model. */
  redactAll<T>(value: T): T {
    return this.redactor.redactAll(value);
  }
}

// ---- page text is data ----

/**
 * Wraps page text (snapshots, read_page output) so the model can tell it from instructions.
 * A page cannot close the wrapper early: its own `<page_data`/`</page_data` tags are defused.
 */
export function pageData(attrs: Record<string, string | number | boolean>, body: string): string {
  const a = Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${String(v).replace(/["<>&]/g, (c) => `&#${c.charCodeAt(0)};`)}"`)
    .join('');
  return `<page_data${a}>\n${defuse(body)}\n</page_data>`;
}

export const defuse = (text: string) => text.replace(/<(\/?)(\s*page_data)/gi, '&lt;$1$2');
