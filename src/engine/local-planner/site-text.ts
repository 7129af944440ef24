import { normalizeUrl } from '../normalize-url';
import { isAddress } from './address';
import { escapeRegExp } from './text';

// What open_url gets: the user's own site text ("chatgpt", "hacker news", "github.com/vercel");
// the executor normalises it. Only text the normaliser turns into a real address is passed,
// and never a common noun that would become a made-up site ("open my email" is not email.com).

const GENERIC = new Set([
  'email', 'mail', 'inbox', 'calendar', 'music', 'news', 'weather', 'maps', 'map', 'docs', 'documents', 'document',
  'files', 'file', 'folder', 'settings', 'browser', 'window', 'windows', 'app', 'apps', 'application', 'tab', 'tabs',
  'it', 'that', 'this', 'them', 'something', 'anything', 'everything', 'stuff', 'video', 'videos', 'photos', 'pictures',
  'notes', 'chat', 'search', 'home', 'work', 'game', 'games', 'page', 'site', 'website', 'link', 'url', 'one', 'all',
  'left', 'right', 'main', 'monitor', 'screen', 'display', 'terminal', 'editor', 'code', 'new', 'blank',
  'preset', 'layout', 'mode', 'undo', 'back', 'more', 'other', 'another', 'last', 'next', 'previous', 'first',
]);

/** The typed form of `phrase` (which is lower-cased) inside the original sentence, so paths keep their case. */
export function typedForm(phrase: string, original: string): string {
  const m = new RegExp(escapeRegExp(phrase), 'i').exec(original);
  return m ? m[0] : phrase;
}

/** The url for open_url, or null when the phrase is not clearly a site. */
export function siteText(phrase: string, original: string): string | null {
  const p = phrase
    .trim()
    .replace(/\s+dot\s+(com|org|net|io|dev|ai|co|app)$/, '.$1')
    .replace(/\s+(?:website|site|homepage|home page|web ?page|page|web app)$/, '')
    .trim();
  if (!p || GENERIC.has(p)) return null;
  if (!normalizeUrl(p).ok) return null;
  return isAddress(p) ? typedForm(p, original) : p;
}
