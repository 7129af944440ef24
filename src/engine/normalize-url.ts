import { getDomain, parse } from 'tldts';

export type NormalizedUrl = { ok: true; url: string; domain: string } | { ok: false; reason: string };

const MAX_LENGTH = 8192;

// Sites whose address is not simply "<name>.com", or that people write as two words. Keys
// are lowercase with spaces removed, so "Hacker News" and "hackernews" both match. A Map, so
// that "constructor" or "__proto__" is a site name rather than an Object.prototype member.
const SITE_ALIASES = new Map<string, string>([
  ['chatgpt', 'chatgpt.com'],
  ['claude', 'claude.ai'],
  ['hackernews', 'news.ycombinator.com'],
  ['hn', 'news.ycombinator.com'],
  ['gmail', 'mail.google.com'],
  ['googledocs', 'docs.google.com'],
  ['googlesheets', 'sheets.google.com'],
  ['googledrive', 'drive.google.com'],
  ['googlecalendar', 'calendar.google.com'],
  ['googlemaps', 'maps.google.com'],
  ['yt', 'youtube.com'],
  ['x', 'x.com'],
  ['twitter', 'x.com'],
  ['gh', 'github.com'],
  ['reddit', 'reddit.com'],
  ['wikipedia', 'wikipedia.org'],
  ['stackoverflow', 'stackoverflow.com'],
  ['outlook', 'outlook.live.com'],
  ['fb', 'facebook.com'],
  ['ig', 'instagram.com'],
  ['bbc', 'bbc.co.uk'],
  ['mdn', 'developer.mozilla.org'],
  ['npm', 'npmjs.com'],
  ['whatsapp', 'web.whatsapp.com'],
]);

const fail = (reason: string): NormalizedUrl => ({ ok: false, reason });

/** localhost (Chrome resolves *.localhost to loopback too) or an IP literal. */
const isLocalOrIp = (host: string) =>
  host === 'localhost' || host.endsWith('.localhost') || parse(host).isIp === true;

/** Why this (already URL-normalized) hostname can't be opened, or null when it can. */
function hostProblem(hostname: string): string | null {
  if (isLocalOrIp(hostname)) return null;
  const { isIcann, isPrivate, domain } = parse(hostname);
  if (!isIcann && !isPrivate) return 'has no known top-level domain';
  // A bare suffix such as "co.uk" parses, but no site lives there.
  if (!domain) return 'is not a web address or known site name';
  return null;
}

function tryUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

export function normalizeUrl(input: string): NormalizedUrl {
  const text = String(input ?? '').trim();
  if (!text) return fail('is empty');
  if (text.length > MAX_LENGTH) return fail(`is longer than ${MAX_LENGTH} characters`);

  // Browsers drop tabs and newlines anywhere in a URL, so "java\tscript:" is javascript:.
  // Look for the scheme the browser would see, so the reason names it.
  const squeezed = text.replace(/[\t\n\r]/g, '');
  if (squeezed.toLowerCase() === 'about:blank') return { ok: true, url: 'about:blank', domain: '' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1]?.toLowerCase();
  // "localhost:3000" and "example.com:8080" look like schemes but are host:port.
  const isHostPort = scheme !== undefined && (scheme === 'localhost' || scheme.includes('.'));
  if (scheme && scheme !== 'http' && scheme !== 'https' && !isHostPort) {
    return fail(`uses the "${scheme}:" scheme; only http and https web addresses can be opened`);
  }
  // Invisible format characters (zero-width, bidi overrides) would be silently dropped or
  // reorder what the person sees, so they are refused along with control characters.
  if (/[\p{Cc}\p{Cf}]/u.test(text)) return fail('contains control or invisible characters');

  let url: URL | null;
  if (scheme === 'http' || scheme === 'https') {
    url = tryUrl(text);
  } else {
    const alias = SITE_ALIASES.get(text.toLowerCase().replace(/\s+/g, ''));
    const word = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(text) ? text.toLowerCase() : null;
    // A lone word is a site name, except localhost which is its own host.
    const bare = alias ?? (word && word !== 'localhost' ? `${word}.com` : text);
    // Whitespace before the path means prose ("weather in paris"), not an address; choosing
    // a site for that is the planner's job.
    if (/\s/.test(bare.split(/[/?#]/, 1)[0] ?? '')) return fail('is not a web address or known site name');
    if (/^[/\\]/.test(bare)) return fail('looks like a file path, not a web address');
    url = tryUrl(`https://${bare}`);
    // Local dev servers rarely have TLS. Re-parse rather than set protocol, so an explicit
    // ":443" is not dropped as the https default port.
    if (url && isLocalOrIp(url.hostname)) url = tryUrl(`http://${bare}`);
  }

  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return fail('is not a valid web address');
  }
  if (url.username || url.password) return fail('contains a user name or password');
  const problem = hostProblem(url.hostname);
  if (problem) return fail(problem);
  if (url.href.length > MAX_LENGTH) return fail(`is longer than ${MAX_LENGTH} characters`);
  return { ok: true, url: url.href, domain: domainOf(url.href) };
}

export function domainOf(url: string): string {
  const parsed = tryUrl(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return '';
  const host = parsed.hostname;
  return isLocalOrIp(host) ? host : (getDomain(host) ?? host);
}
