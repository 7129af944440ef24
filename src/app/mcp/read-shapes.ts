import { z } from 'zod';
import { MonitorInfo, RecentItem, WindowInfo } from '../../protocol/context';
import { Preset } from '../../protocol/preset';

// What the read tools answer as structuredContent, declared as their outputSchema (the SDK
// checks every answer against it on both ends). Lean on purpose: this JSON is what clients such
// as Claude Code and VS Code hand the model, so keys are short, flags appear only when set, and
// nothing is said twice (the text beside it is one summary line). Objects stay open (.loose(): no
// additionalProperties: false) so a field added later (a row's device) does not break clients that validate.

/** One tab of a listing: enough to name it again (i with the snapshot_id) and to tell it apart. */
export const TabRow = z.object({
  i: z.number().int().describe('Index in this snapshot (1-based, across windows): pass it with snapshot_id.'),
  w: z.number().int().describe('Its Chrome window (1 = the first).'),
  title: z.string(),
  site: z.string().describe('Registrable domain or host, e.g. "github.com".'),
  active: z.boolean().optional().describe('true: the selected tab of its window.'),
  pinned: z.boolean().optional(),
  muted: z.boolean().optional(),
  group: z.string().optional().describe('Its tab group\'s title.'),
  url: z.string().optional().describe('The full address (with urls: true).'),
  id: z.string().optional().describe('Stable tab id for tab_ids (with ids: true).'),
  used: z.string().nullable().optional().describe('When it was last selected (ISO 8601); null: not known.'),
  excerpt: z.string().optional().describe('Where the page text matched.'),
  summary: z.string().optional().describe('The page\'s description or first words (with summaries: true).'),
}).loose();
export type TabRow = z.infer<typeof TabRow>;

const snapshotId = z.string().describe('Pass it with the i of these tabs to the tools that act on tabs.');

export const TabListOutput = { snapshot_id: snapshotId, tabs: z.array(TabRow) };

export const TabSearchOutput = { snapshot_id: snapshotId, total: z.number().int().describe('Open tabs searched.'), tabs: z.array(TabRow) };

export const SiteCountOutput = {
  total: z.number().int().describe('Open tabs.'),
  sites: z.array(z.object({ site: z.string(), n: z.number().int(), i: z.array(z.number().int()).describe('The tabs\' indices (no snapshot: count again before acting).') }).loose()),
};

const AppWindow = z.object({
  window_id: z.string(),
  title: z.string(),
  bounds: z.array(z.number()).describe('Outer frame [left,top,right,bottom].'),
  monitor: z.string().nullable(),
  focused: z.boolean(),
  minimized: z.boolean(),
  state: z.string().optional(),
}).loose();

export const AppsOutput = {
  monitors: z.array(MonitorInfo.pick({ name: true, roles: true, bounds: true, work_area: true, primary: true }).loose()),
  apps: z.array(z.object({ name: z.string(), windows: z.array(AppWindow) }).loose()),
};

export const DesktopOutput = {
  snapshot_id: snapshotId,
  taken_at: z.string(),
  ...AppsOutput,
  tabs: z.array(TabRow),
  presets: z.array(z.string()).describe('Saved presets by name (list_presets shows them).'),
  unavailable: z.record(z.string(), z.string()).optional().describe('What could not be read, and why.'),
};

export const WindowsOutput = { windows: z.array(WindowInfo.extend({ app: z.string() }).loose()) };

export const RecentOutput = { recent_files: z.array(RecentItem.loose()), recent_projects: z.array(RecentItem.loose()) };

export const PresetsOutput = { presets: z.array(Preset.loose()) };

export const DevicesOutput = {
  devices: z.array(
    z.object({
      name: z.string(),
      id: z.string(),
      platform: z.string(),
      online: z.boolean(),
      this_device: z.boolean(),
      last_seen: z.string(),
      tabs: z.number().int().nullable(),
    }).loose(),
  ),
};

/** An engine report (query's answer): each result's words, and whether it went well. */
export const ReportOutput = {
  status: z.string(),
  results: z.array(z.object({ type: z.string(), ok: z.boolean(), message: z.string(), code: z.string().optional(), data: z.unknown().optional() }).loose()),
  warnings: z.array(z.string()).optional(),
};
