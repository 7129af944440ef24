import type { TabInfo } from '../../protocol/context';
import { isAddress } from './address';
import { fuzzyPick, type FuzzyKey } from './fuzzy';
import { aliasHosts, knownSiteNames } from './site-aliases';
import { conceptOf, stem, type ConceptTab } from './tab-concepts';
import { squash, wordsOf } from './text';

// Which open tabs a phrase such as "reddit", "hacker news", "github.com/vercel", "the
// deskpilot issues" or "the espresso reddit post" means. Tiers, strongest first; a weaker
// tier is consulted only when every stronger one found nothing:
//   site  — the whole phrase is the site: its name without TLD ("reddit" ~ reddit.com), a
//           well-known alias ("gmail" ~ mail.google.com) or a typed host/URL prefix;
//   words — every specific word of the phrase is in the tab (title, address, or its site's
//           name); words for a kind of page ("thread", "repo", "doc") need not be, but count
//           for the tabs they describe. The tabs matching most words win; a tie is a tie;
//   fuzzy — a slip in a site name ("redit"), strict (see fuzzy.ts).

export type TabTier = 'site' | 'words' | 'fuzzy';
export type TabMatch =
  /** tabs: the best matches; all: every tab the phrase fits (for "close all … tabs"). */
  { tier: TabTier; tabs: TabInfo[]; all: TabInfo[] } | { tier: 'none'; tabs: []; all: [] };

const NONE: TabMatch = { tier: 'none', tabs: [], all: [] };

interface TabKeys {
  tab: TabInfo;
  /** Host without "www.", e.g. "mail.google.com". */
  host: string;
  path: string;
  /** host + path, e.g. "github.com/vercel/next.js". */
  hostPath: string;
  domain: string;
  /** Squashed registrable name without its public suffix: "google", "bbc", "nextjs". */
  label: string;
  /** Stems of the title's and the address's words. */
  words: Set<string>;
  titleWords: Set<string>;
  /** Words only a product subdomain's parent domain gives it ("google" for mail.google.com). */
  parentWords: Set<string>;
  /** The title's and address's words as written, unstemmed ("canvas", where `words` has "canva"). */
  rawWords: Set<string>;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

function keysOf(tab: TabInfo): TabKeys {
  let host = '';
  let path = '';
  try {
    const u = new URL(tab.url);
    host = u.hostname.toLowerCase();
    path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '').toLowerCase();
  } catch {
    // A tab with an unparsable URL can still match by its title.
  }
  host = host.replace(/^www\./, '');
  const domain = (tab.domain || host).toLowerCase().replace(/^www\./, '');
  const label = squash(domain.includes('.') && !IPV4.test(domain) ? domain.split('.')[0]! : domain);
  const titleWords = new Set(wordsOf(tab.title).map(stem));
  const words = new Set([...titleWords, ...wordsOf(`${host} ${path}`).map(stem)]);
  // Gmail's address says "google": "the google tab" may be Gmail, "the google doc" is not.
  const parentWords = new Set<string>();
  if (PRODUCT_DOMAINS.has(domain) && host.endsWith(`.${domain}`)) {
    const own = new Set([...titleWords, ...wordsOf(`${host.slice(0, -domain.length - 1)} ${path}`).map(stem)]);
    for (const w of words) if (!own.has(w)) parentWords.add(w);
  }
  const rawWords = new Set(wordsOf(`${tab.title} ${host} ${path}`));
  return { tab, host, path, hostPath: host + path, domain, label, words, titleWords, parentWords, rawWords };
}

// Snapshots are immutable while a sentence is planned; keys are computed once per tab list.
const cache = new WeakMap<readonly TabInfo[], TabKeys[]>();
function keysFor(tabs: readonly TabInfo[]): TabKeys[] {
  let keys = cache.get(tabs);
  if (!keys) cache.set(tabs, (keys = tabs.map(keysOf)));
  return keys;
}

/** Words that say "a tab" rather than which one. */
const NOISE = new Set([
  'the', 'a', 'an', 'my', 'our', 'your', 'this', 'that', 'these', 'those', 'tab', 'tabs', 'page', 'pages', 'site', 'website',
  'window', 'one', 'thing', 'about', 'with', 'from', 'for', 'to', 'in', 'on', 'of', 'and', 'called', 'named', 'titled',
  'regarding', 're', 'open', 'opened', 'current', 'at', 'some', 'its', 'link',
]);

function hostMatches(k: TabKeys, host: string): boolean {
  return k.hostPath === host || k.hostPath.startsWith(`${host}/`) || k.host === host || k.host.endsWith(`.${host}`);
}

// Domains whose subdomains are separate products people call by their own names: "google"
// is google.com (search, maps …), not Gmail or Google Docs (those go by alias: "gmail", "google docs"),
// and "calendar" is calendar.google.com, as "reddit" is reddit.com.
const PRODUCT_DOMAINS = new Set(['google.com']);

function siteMatches(k: TabKeys, squashed: string): boolean {
  if (!squashed) return false;
  const product = PRODUCT_DOMAINS.has(k.domain) && k.host !== k.domain;
  if (k.label === squashed && !product) return true;
  if (product && k.host === `${squashed}.${k.domain}`) return true;
  const hosts = aliasHosts(squashed);
  return hosts !== null && hosts.some((h) => hostMatches(k, h));
}

function siteHits(phrase: string, keys: TabKeys[]): TabInfo[] {
  const p = phrase.trim().toLowerCase();
  if (isAddress(p)) {
    const bare = p.replace(/^[a-z]+:\/\//, '').replace(/^www\./, '').replace(/\/$/, '');
    const exactOnly = PRODUCT_DOMAINS.has(bare);
    return keys.filter((k) => (exactOnly ? k.host === bare : hostMatches(k, bare) || k.domain === bare)).map((k) => k.tab);
  }
  const q = squash(p);
  return keys.filter((k) => siteMatches(k, q)).map((k) => k.tab);
}

/** Tabs whose title holds the phrase's words in a row ("next.js" in "GitHub - vercel/next.js"). */
function titleNames(phrase: string, keys: TabKeys[]): TabInfo[] {
  const words = wordsOf(phrase);
  if (words.length === 0) return [];
  return keys
    .filter((k) => {
      const title = wordsOf(k.tab.title);
      for (let i = 0; i + words.length <= title.length; i++) if (words.every((w, j) => title[i + j] === w)) return true;
      return false;
    })
    .map((k) => k.tab);
}

// Short forms people type for words titles spell out.
const SYNONYMS = new Map<string, string[]>([
  ['vscode', ['visual studio code']],
  ['vsc', ['visual studio code']],
  ['pr', ['pull request']],
  ['js', ['javascript']],
  ['ts', ['typescript']],
  ['k8s', ['kubernetes']],
]);

interface Unit {
  /** Alternative spellings; the unit matches when every word of one of them is in the tab. */
  alts: string[][];
  /** The words as said, unstemmed: a tab holding them exactly ("Canvas") beats one that only shares a stem ("Canva"). */
  raw: string[];
  /** Squashed, when the words may name a site ("stack overflow", "next.js", "hn"). */
  site: string | null;
}

/** Splits a phrase into required units (names, possibly several words) and optional concept words. */
const unit = (text: string, site: string | null): Unit => ({
  alts: [wordsOf(text).map(stem).filter((w) => !NOISE.has(w)), ...(SYNONYMS.get(squash(text)) ?? []).map((s) => wordsOf(s).map(stem))],
  raw: wordsOf(text).filter((w) => !NOISE.has(w)),
  site,
});

interface Concept {
  test: (t: ConceptTab) => boolean;
  /** The word as said: a tab whose title has it literally ("Inbox") fits better than one merely of that kind. */
  word: string;
}

function analyse(phrase: string, keys: TabKeys[]): { units: Unit[]; concepts: Concept[] } {
  const tokens = phrase.toLowerCase().split(/\s+/).filter(Boolean);
  const labels = new Set(keys.map((k) => k.label));
  const isSite = (sq: string) => sq.length > 1 && (labels.has(sq) || aliasHosts(sq) !== null);
  const units: Unit[] = [];
  const concepts: Concept[] = [];
  let i = 0;
  while (i < tokens.length) {
    let taken = 0;
    for (let n = Math.min(3, tokens.length - i); n >= 2 && !taken; n--) {
      const gram = tokens.slice(i, i + n).join(' ');
      const concept = conceptOf(gram);
      const sq = squash(gram);
      if (concept) {
        concepts.push({ test: concept, word: stem(gram) });
        taken = n;
      } else if (isSite(sq) || SYNONYMS.has(sq)) {
        units.push(unit(gram, isSite(sq) ? sq : null));
        taken = n;
      }
    }
    if (taken) {
      i += taken;
      continue;
    }
    const token = tokens[i]!;
    i++;
    const words = wordsOf(token).map(stem).filter((w) => !NOISE.has(w));
    if (words.length === 0) continue;
    const concept = words.length === 1 ? conceptOf(words[0]!) : null;
    if (concept && !isSite(squash(token))) concepts.push({ test: concept, word: words[0]! });
    else units.push(unit(token, isSite(squash(token)) ? squash(token) : null));
  }
  return { units, concepts };
}

function scored(phrase: string, keys: TabKeys[], titlesOnly: boolean): { best: TabInfo[]; all: TabInfo[] } {
  const { units, concepts } = analyse(phrase, keys);
  if (units.length === 0 && concepts.length === 0) return { best: [], all: [] };
  const results: Array<{ tab: TabInfo; score: number }> = [];
  for (const k of keys) {
    const words = titlesOnly ? k.titleWords : k.words;
    let ownSite = false;
    let byParent = false;
    let ok = true;
    for (const u of units) {
      const bySite = !titlesOnly && u.site !== null && siteMatches(k, u.site);
      if (bySite) ownSite = true;
      const fits = (alt: string[]) => alt.length > 0 && alt.every((w) => words.has(w));
      if (!bySite && !u.alts.some(fits)) {
        ok = false;
        break;
      }
      if (!bySite && !u.alts.some((alt) => fits(alt) && !alt.some((w) => k.parentWords.has(w)))) byParent = true;
    }
    if (!ok) continue;
    const c: ConceptTab = { host: k.host, path: k.path, words: k.words, ownSite };
    const hits = concepts.filter((f) => f.test(c)).length;
    // Named only through its parent domain ("google"), a tab must at least be the kind of page said.
    if (byParent && concepts.length > 0 && hits === 0) continue;
    const literal = concepts.filter((f) => k.titleWords.has(f.word)).length;
    if (units.length === 0 && hits + literal === 0) continue;
    const exact = units.length > 0 && units.every((u) => u.site !== null && siteMatches(k, u.site) || u.raw.every((w) => k.rawWords.has(w))) ? 0.5 : 0;
    results.push({ tab: k.tab, score: units.length + hits + literal + exact });
  }
  const top = Math.max(0, ...results.map((r) => r.score));
  return { best: results.filter((r) => r.score === top).map((r) => r.tab), all: results.map((r) => r.tab) };
}

function fuzzyHits(phrase: string, keys: TabKeys[]): TabInfo[] {
  // Only site names: a slip in a site name means every tab of that site. Titles are too
  // varied for a typo to point at one tab reliably. The names people use for a site count as
  // its names ("gmial" is a slip of "gmail", mail.google.com).
  const names = new Map<string, TabKeys[]>();
  const add = (name: string, k: TabKeys) => names.set(name, [...(names.get(name) ?? []), k]);
  for (const k of keys) add(k.label, k);
  for (const name of knownSiteNames()) for (const k of keys) if (siteMatches(k, name) && k.label !== name) add(name, k);
  const byName = fuzzyPick(squash(phrase), [...names.keys()].map((n) => ({ value: n, key: n })) as FuzzyKey<string>[]);
  const picked = byName.kind === 'one' ? [byName.value] : byName.kind === 'many' ? byName.values : [];
  return [...new Set(picked.flatMap((n) => names.get(n)!.map((k) => k.tab)))].sort((a, b) => a.index - b.index);
}

export interface TabMatchOptions {
  /** Match words only; never the whole phrase as a site name or a typo. */
  wordsOnly?: boolean;
  /** Words must be in the title (not the address): "tabs with lisbon in the title". */
  titlesOnly?: boolean;
  fuzzy?: boolean;
}

export function matchTabs(phrase: string, tabs: readonly TabInfo[], opts: TabMatchOptions = {}): TabMatch {
  const keys = keysFor(tabs);
  if (!opts.wordsOnly && !opts.titlesOnly) {
    const site = siteHits(phrase, keys);
    if (isAddress(phrase.trim().toLowerCase())) return site.length ? { tier: 'site', tabs: site, all: site } : NONE;
    // A tab whose title names the site is as good a candidate for "the X tab" as one on X's
    // site ("next.js": nextjs.org, and "GitHub - vercel/next.js"), and so one of "the X tabs"
    // (matchTabsPlural). `all` stays the site's own tabs: "which tabs are from X".
    if (site.length) {
      const named = titleNames(phrase, keys).filter((t) => !site.includes(t));
      return { tier: 'site', tabs: [...site, ...named].sort((a, b) => a.index - b.index), all: site };
    }
  }
  // "gmail and calendar" is two things; the callers split it.
  if (/\s(?:and|or|&)\s|,/.test(phrase)) return NONE;
  const words = scored(phrase, keys, opts.titlesOnly === true);
  if (words.all.length) return { tier: 'words', tabs: words.best, all: words.all };
  if (opts.fuzzy !== false && !opts.wordsOnly && !opts.titlesOnly) {
    const fuzzy = fuzzyHits(phrase, keys);
    if (fuzzy.length) return { tier: 'fuzzy', tabs: fuzzy, all: fuzzy };
  }
  return NONE;
}

/**
 * The tabs a plural names — "the next.js tabs", "all lisbon tabs" — at the bar single matches
 * use ("the next.js tab" has two candidates: nextjs.org and "GitHub - vercel/next.js"; "the
 * next.js tabs" are those two), graded by how plainly each is named:
 *   strong — on the site the phrase names, or its title names it (site tier); its title or
 *            site holds every specific word (words tier); a slip in a site name (fuzzy tier);
 *   weak   — fits only through words of its address ("lisbon" in airbnb.com/s/Lisbon under
 *            the title "Alfama apartments"): the user may not think of it as one of them.
 * A caller that gets both asks rather than silently closing or sparing the weak ones.
 */
export interface PluralMatch {
  tier: TabTier | 'none';
  strong: TabInfo[];
  weak: TabInfo[];
}

const byIndex = (a: TabInfo, b: TabInfo) => a.index - b.index;

export function matchTabsPlural(phrase: string, tabs: readonly TabInfo[], opts: TabMatchOptions = {}): PluralMatch {
  const m = matchTabs(phrase, tabs, opts);
  if (m.tier === 'none') return { tier: 'none', strong: [], weak: [] };
  // Site tier: m.tabs is the site's tabs plus the tabs whose title names it (an address: the site's only).
  if (m.tier === 'site') return { tier: 'site', strong: [...m.tabs].sort(byIndex), weak: [] };
  if (m.tier === 'fuzzy' || opts.titlesOnly) return { tier: m.tier, strong: [...m.all].sort(byIndex), weak: [] };
  const keys = keysFor(tabs);
  const { units } = analyse(phrase, keys);
  const named = (k: TabKeys) =>
    units.every((u) => (u.site !== null && siteMatches(k, u.site)) || u.alts.some((alt) => alt.length > 0 && alt.every((w) => k.titleWords.has(w))));
  const fits = new Set(m.all);
  const strong = keys.filter((k) => fits.has(k.tab) && named(k)).map((k) => k.tab);
  const weak = m.all.filter((t) => !strong.includes(t));
  return { tier: 'words', strong: strong.sort(byIndex), weak: [...weak].sort(byIndex) };
}
