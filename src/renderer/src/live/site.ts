// How a tab's site is named to a person: "reddit.com", or "this computer" for a page served
// from a loopback address (a bare "127.0.0.1" reads like a fault, not a place), and the
// site's name as its own titles spell it ("YouTube", not "Youtube") when a title says it.

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0)$/i;

export const isLoopback = (domain: string): boolean => LOOPBACK.test(domain.trim());

/** The site as a short place name for a list row or a result line. */
export function siteLabel(domain: string): string {
  const d = domain.trim();
  if (!d) return '';
  return isLoopback(d) ? 'this computer' : d.replace(/^www\./i, '');
}

const TITLE_PARTS = /\s+[-–—|·:]\s+/;

/**
 * "youtube.com" with titles like "Lo-fi beats - YouTube" → "YouTube": a title part that spells
 * the domain's name (case and spaces aside) gives its casing; otherwise the name capitalised.
 * Null for a loopback or empty domain (no site name to give).
 */
export function siteName(domain: string, titles: readonly string[] = []): string | null {
  const d = domain.trim().replace(/^www\./i, '');
  if (!d || isLoopback(d)) return null;
  const label = d.split('.')[0]!;
  const key = label.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const title of titles) {
    for (const part of title.split(TITLE_PARTS)) {
      if (part.toLowerCase().replace(/[^a-z0-9]/g, '') === key) return part.trim();
    }
  }
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** A tab's stand-in icon: the site's first letter on a colour of its own (stable per site). */
export function monogram(domain: string, title: string): { letter: string; hue: number } {
  const name = siteName(domain) ?? title.trim();
  const letter = (name.match(/[\p{L}\p{N}]/u)?.[0] ?? '•').toUpperCase();
  let h = 0;
  // Pages of this computer share one address: their titles tell them apart.
  for (const c of isLoopback(domain) || !domain ? title : domain) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return { letter, hue: h % 360 };
}

const LOOPBACK_HOST = String.raw`(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?`;
const LOOPBACK_IN_PARENS = new RegExp(String.raw`\s\(${LOOPBACK_HOST}\)`, 'gi');
const LOOPBACK_AS_PLACE = new RegExp(String.raw`\b(on|at|from) ${LOOPBACK_HOST}\b`, 'gi');

/**
 * A result line as a person reads it: a loopback host in parentheses says nothing ("Switched to
 * tab 3 "Hacker News" (127.0.0.1)" → without it), "on 127.0.0.1" is "on this computer", and
 * quotes are typographic throughout.
 */
export function tidyMessage(message: string): string {
  return curlyQuotes(message.replace(LOOPBACK_IN_PARENS, '').replace(LOOPBACK_AS_PLACE, '$1 this computer'));
}

/** "x" → “x”, and an apostrophe ’: the app's own sentences use typographic quotes, so everything shown does. */
export function curlyQuotes(s: string): string {
  return s
    .replace(/(^|[\s([{“‘—–-])"/g, '$1“')
    .replace(/"/g, '”')
    .replace(/(^|[\s([{“—–-])'/g, '$1‘')
    .replace(/'/g, '’');
}
