import type { AgentBrowser, BrowserTab } from '../agent-ports';
import { clip } from '../words';
import type { Secrets } from './safety';
import type { StartTab } from './types';

// Which of the person's tabs a run starts on: the one they are looking at, one named by words
// in its title or address, or one given by id. Anything but exactly one tab is said, not guessed.

export async function findStartTab(browser: AgentBrowser, wanted: StartTab, secrets: Secrets): Promise<{ targetId: string } | { failed: string }> {
  if (wanted === 'current') {
    const found = await browser.currentTab();
    return found.tab ? { targetId: found.tab.targetId } : { failed: `there is no current tab to start from: ${found.why}` };
  }
  if ('targetId' in wanted) return { targetId: wanted.targetId };
  const words = wanted.named.trim().toLowerCase();
  const open = await browser.listTabs({ maskPii: false });
  const matching = open.filter((t) => t.title.toLowerCase().includes(words) || t.url.toLowerCase().includes(words));
  if (matching.length === 1) return { targetId: matching[0]!.targetId };
  const said = JSON.stringify(wanted.named);
  if (matching.length === 0) return { failed: `no open tab has ${said} in its title or address` };
  const names = matching.slice(0, 5).map((t) => label(t, secrets));
  const more = matching.length > 5 ? ` and ${matching.length - 5} more` : '';
  return { failed: `${matching.length} tabs have ${said} in their title or address (${names.join('; ')}${more}); name one more exactly` };
}

/** A tab as the person recognises it, redacted: "Title (https://…)". */
const label = (t: BrowserTab, secrets: Secrets) => secrets.redact(`${clip(t.title || '(untitled)', 60)} (${clip(t.url, 80)})`);
