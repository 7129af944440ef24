import type { DeskIndex, IndexTab } from '../../../protocol/launcher';
import { siteName } from './site';

// The empty popover's "Try:" sentences, made from what this desk has — its sites, its running
// apps, its monitors — so that every suggestion works here as it is (no app the person may not
// have). Sentences the offline matcher understands.

const MAX = 4;

/** A tab's name as a person would say it: its site ("reddit"), or its title's first words. */
function spoken(tab: IndexTab): string {
  const site = siteName(tab.domain, [tab.title]);
  if (site) return site.toLowerCase();
  return tab.title.split(/\s+[-–—|·:]\s+/)[0]!.split(/\s+/).slice(0, 3).join(' ').toLowerCase();
}

export function suggestions(index: DeskIndex | null): string[] {
  if (!index) return [];
  const out: string[] = [];
  const bySite = new Map<string, number>();
  for (const t of index.tabs) {
    const site = siteName(t.domain, [t.title]);
    if (site) bySite.set(site, (bySite.get(site) ?? 0) + 1);
  }
  const target = index.tabs.find((t) => !t.active) ?? index.tabs[0];
  if (target && spoken(target)) out.push(`switch to ${spoken(target)}`);
  const running = index.apps.filter((a) => a.running && a.windows.length > 0);
  const twoMonitors = index.monitors.some((m) => m.roles.includes('left')) && index.monitors.some((m) => m.roles.includes('right')) && index.monitors.length > 1;
  if (twoMonitors && running.length >= 2) out.push(`${running[0]!.name.toLowerCase()} left and ${running[1]!.name.toLowerCase()} right`);
  else if (twoMonitors && running.length === 1) out.push(`move ${running[0]!.name.toLowerCase()} to the right monitor`);
  const [many] = [...bySite].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]);
  if (many) out.push(`close all ${many[0].toLowerCase()} tabs`);
  if (index.tabs.length > 0) out.push('how many tabs do I have open?');
  if (index.presets[0]) out.push(`apply ${index.presets[0]}`);
  return [...new Set(out)].slice(0, MAX);
}
