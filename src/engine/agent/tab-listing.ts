import type { BrowserTab } from '../agent-ports';
import { clip, oneLine } from '../words';
import { domainProblem, type DomainPolicy, type Secrets } from './safety';
import type { Target } from './target-tabs';

// What list_tabs tells the executor: its target tabs by number, then the person's other tabs,
// read-only, one short line each. Tabs on domains the rules refuse are only counted (their titles
// and addresses are what the rules keep from the model), and a long list is cut, so a browser with
// hundreds of tabs still costs a few hundred tokens.

/** The person's tabs listed by name at most; the rest are counted. */
export const MAX_OTHER_TABS = 30;
const TITLE_CHARS = 60;
const URL_CHARS = 100;

export interface TabListingInput {
  targets: readonly Target[];
  current: Target | null;
  open: readonly BrowserTab[];
  policy: DomainPolicy;
  secrets: Secrets;
}

export function tabListing(i: TabListingInput): string {
  const byId = new Map(i.open.map((t) => [t.targetId, t]));
  const line = (title: string, url: string) =>
    `"${clip(oneLine(i.secrets.redact(title)) || '(untitled)', TITLE_CHARS)}" ${clip(i.secrets.redact(url), URL_CHARS)}`;
  const out: string[] = [];
  if (i.targets.length === 0) out.push('Target tabs: none open yet.');
  else {
    out.push('Target tabs (switch_tab / close_tab by number):');
    for (const t of i.targets) {
      const seen = byId.get(t.targetId);
      out.push(`${t.n}${t === i.current ? ' (current)' : ''} ${line(seen?.title ?? t.snapshot?.title ?? '', seen?.url ?? t.url)}`);
    }
  }
  const mine = new Set(i.targets.map((t) => t.targetId));
  const others = i.open.filter((t) => !mine.has(t.targetId));
  const visible = others.filter((t) => domainProblem(t.url, i.policy) === null);
  const hidden = others.length - visible.length;
  if (others.length === 0) out.push("The user's other tabs: none.");
  else {
    out.push("The user's other tabs (read-only: not target tabs; open a URL in a new tab to work with it):");
    for (const t of visible.slice(0, MAX_OTHER_TABS)) out.push(`- ${line(t.title, t.url)}`);
    if (visible.length > MAX_OTHER_TABS) out.push(`- … and ${visible.length - MAX_OTHER_TABS} more`);
    if (hidden > 0) out.push(`- ${hidden} more on domains the agent may not visit (not shown)`);
  }
  return out.join('\n');
}
