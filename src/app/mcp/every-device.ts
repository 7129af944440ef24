import { errorMessage } from '../../engine/errors';
import { windowLine } from '../../engine/window-listing';
import type { ContextSnapshot } from '../../protocol/context';
import type { DeviceView } from '../../protocol/sync';
import {
  acrossDevices,
  readEveryDesk,
  readingLine,
  searchEveryDesk,
  sitesOnEveryDesk,
  tabsOnEveryDesk,
  windowsOnEveryDesk,
  type DeskReading,
  type TabOnDevice,
} from '../sync/every-desk';
import type { McpContext } from './call-context';
import { tabRow } from './tab-text';
import { ToolError, type ToolOutput } from './tool-error';

// `device: "all"` on the read tools (seed 003, issue 29.4): one call answers from this desk
// (live) and every other device's published desk, each row tagged with its device. Every
// device's desk gets a snapshot_id of its own (kept for that device, as a call with `device`
// keeps it), so a row's i names that tab again with that snapshot_id — and `device` for
// another computer. Nothing here acts: "all" on a tool that acts is refused.

export const EVERY_DEVICE = 'all';

/** The tools that take `device: "all"`. */
export const READS_ON_EVERY_DEVICE = ['list_tabs', 'search_tabs', 'count_tabs_by_domain', 'list_windows'] as const;

export const namesEveryDevice = (device: unknown): boolean => typeof device === 'string' && device.trim().toLowerCase() === EVERY_DEVICE;

/** What a device said about itself in an answer across devices. */
interface DeviceNote {
  name: string;
  this_device?: true;
  online: boolean;
  /** Offline: its desk as it was at as_of. */
  stale?: true;
  as_of: string;
  snapshot_id?: string;
  problem?: string;
}

export async function readOnEveryDevice(tool: string, args: Record<string, unknown>, ctx: McpContext): Promise<ToolOutput> {
  if (!(READS_ON_EVERY_DEVICE as readonly string[]).includes(tool)) {
    throw new ToolError(`device: "all" is for reading (${READS_ON_EVERY_DEVICE.join(', ')}); ${tool} acts on one computer: name it from list_devices, or leave device out for this one.`, 'invalid_argument');
  }
  const now = Date.now();
  const { readings, note } = await readAll(ctx, now);
  const ids = new Map(readings.map((r) => [r, r.snapshot ? keep(ctx, r, r.snapshot) : undefined]));
  const devices: DeviceNote[] = readings.map((r) => ({
    name: r.device,
    ...(r.this_device ? { this_device: true as const } : {}),
    online: r.online,
    ...(r.stale ? { stale: true as const } : {}),
    as_of: new Date(r.as_of).toISOString(),
    ...(ids.get(r) ? { snapshot_id: ids.get(r)! } : {}),
    ...(r.problem ? { problem: r.problem } : {}),
  }));
  const here = ids.get(readings[0]!) ?? '';
  const lines = (what: 'chrome' | 'windows') => [...readings.map((r) => readingLine(r, now, what)), ...(note ? [note] : [])];

  switch (tool) {
    case 'list_tabs': {
      const rows = tabsOnEveryDesk(readings).map((t) => tabOut(t, args));
      const head = `${acrossDevices(rows.length, 'tab', readings)}. ${HOW_TO_NAME}`;
      return { text: [head, ...lines('chrome')].join('\n'), data: { snapshot_id: here, tabs: rows, devices } };
    }
    case 'search_tabs': {
      const oneDevice = ['page_text', 'oldest', 'unused_for_hours', 'unused_today', 'summaries'].filter((k) => args[k] !== undefined && args[k] !== false);
      if (oneDevice.length) throw new ToolError(`${oneDevice.join(', ')}: read on one computer at a time (name it as device); across devices, search_tabs looks in titles, addresses and sites.`, 'invalid_argument');
      if (typeof args.query !== 'string' || !args.query.trim()) throw new ToolError('query: give the words to look for across devices (list_tabs with device: "all" lists every tab).', 'invalid_argument');
      const found = searchEveryDesk(readings, args.query);
      const total = tabsOnEveryDesk(readings).length;
      const head = `${acrossDevices(found.length, 'tab', readings)} match "${args.query}" (of ${total}). ${HOW_TO_NAME}`;
      return { text: [head, ...lines('chrome')].join('\n'), data: { snapshot_id: here, total, tabs: found.map((t) => tabOut(t, args)), devices } };
    }
    case 'count_tabs_by_domain': {
      const sites = sitesOnEveryDesk(readings);
      const total = sites.reduce((n, s) => n + s.n, 0);
      const per = (s: (typeof sites)[number]) => `${s.site} ${s.n} (${Object.entries(s.devices).map(([d, n]) => `${d} ${n}`).join(', ')})`;
      const head = `${acrossDevices(total, 'tab', readings)}: ${sites.map(per).join('; ') || 'none open'}`;
      // i (indices) belong to one device's snapshot: list_tabs with device: "all" gives them.
      return { text: [head, ...lines('chrome')].join('\n'), data: { total, sites: sites.map((s) => ({ site: s.site, n: s.n, i: [], devices: s.devices })), devices } };
    }
    default: {
      const rows = windowsOnEveryDesk(readings);
      const head = `${acrossDevices(rows.length, 'window', readings)}, topmost first on each (device  app  window_id  "title"  monitor [frame]  state). Pass window_id with device to act on another computer's window.`;
      return { text: [head, ...rows.map((w) => `${w.device}  ${windowLine(w)}`), ...lines('windows')].join('\n'), data: { windows: rows, devices } };
    }
  }
}

const HOW_TO_NAME = 'Each tab: device, i (its index in that device\'s snapshot: pass it with that device\'s snapshot_id from devices, and device for another computer), w, title, site.';

const tabOut = ({ device, tab }: TabOnDevice, args: Record<string, unknown>) => ({ device, ...tabRow(tab, { urls: args.urls === true, ids: args.ids === true }) });

/** This desk's snapshot under this store; another device's under that device's, as a call naming it would keep it. */
function keep(ctx: McpContext, r: DeskReading, snap: ContextSnapshot): string {
  return r.this_device || !r.device_id ? ctx.snapshots.put(snap) : ctx.snapshots.forDevice({ id: r.device_id, name: r.device }).put(snap);
}

/** Every desk there is to read; without sync (or with its server out of reach) this one alone, and a note saying so. */
async function readAll(ctx: McpContext, now: number): Promise<{ readings: DeskReading[]; note: string | null }> {
  const here = await ctx.desk.snapshot({ summaries: false });
  let views: DeviceView[] | null = null;
  let note: string | null = null;
  if (!ctx.devices) note = 'No sync server is configured (sync.url in config.json): this computer only.';
  else {
    try {
      views = (await ctx.devices.remote()).list();
    } catch (e) {
      note = `The other devices cannot be reached (${errorMessage(e)}): this computer only.`;
    }
  }
  return { readings: readEveryDesk(here, views, now), note };
}
