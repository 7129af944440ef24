import type { ContextSnapshot } from '../protocol/context';

// Names that stand for an app that is not there under that name. "Google Chrome" in a script
// written on a Mac, or "chrome" said by a person, means the Chromium-family browser this desk
// has — DeskPilot drives any of them the same way — and the result names the one used.

/** The family, in the order a stand-in is picked. */
const CHROME_FAMILY = ['googlechrome', 'chromium', 'brave', 'microsoftedge', 'vivaldi'];
const CHROME_WORDS = new Set(['googlechrome', 'chrome']);

const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The Chromium-family browser that answers to `name` ("Google Chrome", "chrome") when no app has
 * that name: a running one first, else (with `installedToo`) an installed one, in family order.
 */
export function browserStandIn(name: string, snap: Pick<ContextSnapshot, 'running_apps' | 'installed_apps'>, installedToo: boolean): string | null {
  if (!CHROME_WORDS.has(squash(name))) return null;
  const pools = [snap.running_apps.map((a) => a.name), ...(installedToo ? [snap.installed_apps.map((a) => a.name)] : [])];
  for (const pool of pools) {
    for (const member of CHROME_FAMILY) {
      const hit = pool.find((n) => squash(n) === member);
      if (hit) return hit;
    }
  }
  return null;
}

/** An app named `word` exactly (letters and digits compared), running or installed: "xclock" is XClock. */
export function appNamed(word: string, snap: Pick<ContextSnapshot, 'running_apps' | 'installed_apps'>): string | null {
  const key = squash(word);
  if (!key) return null;
  return [...snap.running_apps, ...snap.installed_apps].find((a) => squash(a.name) === key)?.name ?? null;
}
