import { normalizeUrl } from './normalize-url';

// What open_url may open. Web addresses (normalised), and a few harmless browser pages. Any
// other scheme only when the person typed that exact address in their own request — then it
// is asked about before it opens. One a planner made up is refused: a prompt injection in a
// tab title could otherwise read local files (file:), run script (javascript:), dress up a
// phishing page (data:) or reach the browser's own pages (chrome:, devtools:).

export type OpenUrlTarget =
  | { ok: true; url: string; domain: string; typed: false }
  /** Not a web address: opens only after a yes (the plan marks it like a destructive command). */
  | { ok: true; url: string; domain: ''; typed: true }
  | { ok: false; reason: string };

/** Browser pages open_url opens like a web address. */
export const BROWSER_PAGES: ReadonlyMap<string, string> = new Map([
  ['about:blank', 'about:blank'],
  ['chrome://newtab', 'chrome://newtab/'],
  ['chrome://newtab/', 'chrome://newtab/'],
]);

const WHY: Record<string, string> = {
  file: 'it shows files from this computer',
  javascript: 'it runs script',
  data: 'the page is written into the address itself, a common phishing trick',
  chrome: "it is one of the browser's own pages (settings, history, passwords)",
  devtools: "it opens the browser's developer tools",
  'view-source': 'it shows a page the way DevTools does',
};

/**
 * `typedText`: the person's own words (run, the launcher). null for input from a program or a
 * planner alone (exec, a batch from elsewhere): then only web addresses and browser pages.
 */
export function openUrlTarget(raw: string, typedText: string | null): OpenUrlTarget {
  const web = normalizeUrl(raw);
  if (web.ok) return { ...web, typed: false };
  const text = String(raw ?? '').trim();
  const page = BROWSER_PAGES.get(text.toLowerCase());
  if (page) return { ok: true, url: page, domain: '', typed: false };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  // Only a scheme the web check refused as a scheme (not a broken http address), and nothing hidden in it.
  if (!scheme || !web.reason.startsWith(`uses the "`)) return web;
  if (/[\p{Cc}\p{Cf}]/u.test(text)) return { ok: false, reason: 'contains control or invisible characters' };
  if (typedText !== null && typedText.includes(text)) return { ok: true, url: text, domain: '', typed: true };
  const why = WHY[scheme] ? ` (${WHY[scheme]})` : '';
  return {
    ok: false,
    reason: `uses the "${scheme}:" scheme${why}; DeskPilot opens only web addresses, and other addresses only when you type them in your own request and confirm`,
  };
}

/** Whether an open_url target needs a person's yes (a non-web address they typed). */
export function needsYes(url: string): boolean {
  return !/^https?:\/\//i.test(url) && ![...BROWSER_PAGES.values()].includes(url);
}
