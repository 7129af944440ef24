import { isAddress } from '../address';
import { normalizeUrl } from '../../normalize-url';
import { matchApp } from '../app-matcher';
import { chromeDown } from '../availability';
import type { ClauseContext } from '../clause-context';
import { resolvePronoun } from '../follow-up';
import { askWhichApp, focusApp } from '../choices';
import { noApp, noTab } from '../messages';
import { ask, CONFIDENCE, ok, type ClauseResult } from '../result';
import { aliasHosts, isUnknownBareWord } from '../site-aliases';
import { siteText, typedForm } from '../site-text';
import { pickTab } from '../switch-target';
import { matchTabs } from '../tab-matcher';
import { askWhat, namesSomething } from '../object-words';
import { hasSeparator, squash, stripArticles } from '../text';

// open / launch. The rule, so it is predictable:
//   - "open X" where X is an app (running or installed) → focus_app (it launches if needed);
//   - "open X" where a tab of X is already open → switch_tab to it (several → ask): the user
//     wants to see X, and a second copy of an open page is clutter;
//   - "open X" where X is a site with no tab open, or an address → open_url (a new tab);
//   - "new tab for X", "open X in a new tab / in chrome" → always open_url, never an app;
//   - "launch / start / run X" → apps only;
//   - an object with no word that can name anything ("uh open the", "new tab for my") is an
//     unfinished sentence → a question (object-words.ts), never a guessed site.

const NEW_TAB = /^(?:open |create |make |start |get me )?(?:a |an )?(?:new|another|fresh|blank|empty) (?:chrome |browser )?tab(?:\s+(?:for|with|to|on|at|and go to|and open|showing|of|and load))?(?:\s+(.+))?$/;
// "open a new chatgpt tab": the site between "new" and "tab".
const NEW_SITE_TAB = /^(?:open|create|make|start|get me|give me) (?:a |an )?(?:new|another|fresh|separate) (?:chrome |browser )?(.+?) tab$/;
const VERB = /^(open up|open|launch|start up|start|run|fire up|boot up|load|visit|browse to)\s+(.+)$/;
const IN_NEW_TAB = /\s+(?:(?:in|on) (?:a |an )?(?:new|another|fresh|separate)(?: chrome| browser)? tab|in (?:google )?chrome|in (?:the |my )?browser|in (?:a )?new window)$/;
const APP_VERBS = new Set(['launch', 'start up', 'start', 'run', 'fire up', 'boot up']);
const SITE_VERBS = new Set(['load', 'visit', 'browse to']);

export function openRule(clause: string, ctx: ClauseContext): ClauseResult | null {
  const nt = NEW_TAB.exec(clause);
  if (nt) {
    if (nt[1] && !namesSomething(nt[1])) return askNewTab();
    return chromeDown(ctx.snap) ?? (nt[1] ? openSite(nt[1], ctx) : ok({ type: 'open_url', url: 'about:blank' }));
  }

  const named = NEW_SITE_TAB.exec(clause);
  if (named && namesSomething(named[1]!)) return chromeDown(ctx.snap) ?? openSite(named[1]!, ctx);

  const m = VERB.exec(clause);
  if (!m) return null;
  const verb = m[1]!;
  let target = m[2]!.trim();
  if (IN_NEW_TAB.test(target)) {
    const site = target.replace(IN_NEW_TAB, '');
    return namesSomething(site) ? (chromeDown(ctx.snap) ?? openSite(site, ctx)) : askNewTab();
  }
  // "my bank" is something of the user's, not a site called bank.com.
  const personal = /^(?:my|our) /.test(target);
  target = stripArticles(target);

  const pronoun = resolvePronoun(target, ctx.referent);
  if (pronoun) return 'result' in pronoun ? pronoun.result : ok({ type: 'focus_app', app_name: pronoun.app });
  if (!namesSomething(target)) {
    const kinds = APP_VERBS.has(verb) ? ['an app', 'slack'] : SITE_VERBS.has(verb) ? ['a site', 'github'] : ['a site or an app', 'github'];
    return askWhat(verb, kinds[0]!, kinds[1]!);
  }
  if (isAddress(target)) return chromeDown(ctx.snap) ?? existingOrNew(target, ctx);
  if (SITE_VERBS.has(verb)) return chromeDown(ctx.snap) ?? existingOrNew(target, ctx);

  const tabWord = /\s+(?:tab|page|website|site)$/.test(target);
  const app = tabWord ? ({ kind: 'none' } as const) : matchApp(target.replace(/\s+(?:app|application|program)$/, ''), ctx.snap, 'any', { fuzzy: false });
  if (app.kind === 'one') return ok({ type: 'focus_app', app_name: app.name });
  if (app.kind === 'many') return askWhichApp(app.names, focusApp);
  if (APP_VERBS.has(verb)) {
    const slip = matchApp(target, ctx.snap, 'any');
    if (slip.kind === 'one') return ok({ type: 'focus_app', app_name: slip.name });
    return ask(noApp(target, ctx.snap.running_apps.map((a) => a.name), 'any'), CONFIDENCE.noMatch);
  }
  const site = existingOrNew(target.replace(/\s+(?:tab|page|website|site)$/, ''), ctx, tabWord, personal);
  if (site.kind === 'ok' && site.commands[0]?.type === 'switch_tab') return chromeDown(ctx.snap) ?? site;
  // No tab of it: a slip in an installed app's name ("open spotfy") is likelier than a site of that name.
  const slip = tabWord || aliasHosts(squash(target)) ? ({ kind: 'none' } as const) : matchApp(target, ctx.snap, 'any');
  if (slip.kind === 'one') return ok({ type: 'focus_app', app_name: slip.name });
  // "open obsidian then put it left" is two clauses; let the sentence splitter have it.
  if (site.kind === 'ask' && hasSeparator(target)) return null;
  return chromeDown(ctx.snap) ?? site;
}

/** The open tab of this site or title, else a new tab; `tabOnly`: "open the X tab" never opens a new one. */
function existingOrNew(target: string, ctx: ClauseContext, tabOnly = false, personal = false): ClauseResult {
  // "open xclock" with no app or site of that name: asked, never a made-up xclock.com.
  const url = tabOnly || (personal && !aliasHosts(squash(target))) || isUnknownBareWord(target) ? null : siteText(target, ctx.original);
  // A plain site name matches tabs of that site only; a description ("the planning doc") any tab's words.
  const tabs = matchTabs(target, ctx.snap.tabs, { fuzzy: false });
  if (tabs.tier === 'site' || (tabs.tier === 'words' && !url)) return pickTab(tabs.tabs);
  if (url) return ok({ type: 'open_url', url: isAddress(target) ? typedForm(target, ctx.original) : url });
  if (tabOnly) return ask(noTab(target, ctx.snap.tabs), CONFIDENCE.noMatch);
  if (isUnknownBareWord(target) && !personal) {
    return ask(`No app or site I know is called "${target}". Say its address, e.g. "open ${target}.com", or the app's name as "deskpilot context" lists it.`, CONFIDENCE.noMatch);
  }
  return ask(`Which site is "${target}"? Say its address, e.g. "open example.com".`, CONFIDENCE.noMatch);
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
};

const askNewTab = () => askWhat('open', 'a site for the new tab', 'github in a new tab');

export function openSite(phrase: string, ctx: ClauseContext): ClauseResult {
  const target = stripArticles(phrase.trim());
  // A site named by a bare word that an open tab is on ("twitch" with a twitch.tv tab): that tab's site.
  if (/^[a-z0-9-]+$/.test(target)) {
    const tabs = matchTabs(target, ctx.snap.tabs, { fuzzy: false });
    const hosts = new Set(tabs.tier === 'site' ? tabs.all.map((t) => hostOf(t.url)).filter(Boolean) : []);
    const host = hosts.size === 1 ? [...hosts][0]! : null;
    const said = siteText(target, ctx.original);
    const saidHost = said ? normalizeUrl(said) : null;
    // A site's own name ("wikipedia" → wikipedia.org) stays its home even when the open tab is on a part of it (en.wikipedia.org).
    const homeOf = saidHost?.ok && aliasHosts(squash(target)) ? hostOf(saidHost.url) : null;
    const partOfHome = homeOf !== null && host !== null && (host === homeOf || host.endsWith(`.${homeOf}`));
    if (host && !partOfHome && !(saidHost?.ok && hostOf(saidHost.url) === host)) return ok({ type: 'open_url', url: `https://${host}` });
  }
  const url = siteText(target, ctx.original);
  if (url) return ok({ type: 'open_url', url });
  return ask(`Which site is "${target}"? Say its address, e.g. "open example.com".`, CONFIDENCE.noMatch);
}
