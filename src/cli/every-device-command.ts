import { tabLine } from '../engine/planning/compact-context';
import { windowLine } from '../engine/window-listing';
import { readEveryDesk, readingLine, searchEveryDesk, sitesOnEveryDesk, tabsOnEveryDesk, windowsOnEveryDesk, type DeskReading } from '../app/sync/every-desk';
import type { ContextSnapshot } from '../protocol/context';
import { loadConfig, type ConfigFlags } from '../platform/config/load-config';
import { withSync } from './devices-command';
import { EXIT } from './exit-codes';
import type { Io } from './io';
import { openDesk } from './open-desk';

// `deskpilot tabs [words] --device all|NAME [--by-site]` and `deskpilot windows --device
// all|NAME`: the read tools across devices (issue 29.4), from this desk (live) and what the
// other devices published, in one go. Each line starts with its device; a device that is
// offline says since when its desk is known.

export interface EveryDeviceArgs {
  /** "all", or one device's name (its published desk). */
  device: string;
  json: boolean;
}

/** This desk, read now (the warm service's when one runs). */
async function hereNow(flags: ConfigFlags, io: Io): Promise<ContextSnapshot> {
  const desk = await openDesk(flags, io);
  try {
    return await desk.snapshot({ summaries: false });
  } finally {
    await desk.close();
  }
}

/** Every desk to list; without sync set up, "all" is this desk alone (and says so). */
async function readings(flags: ConfigFlags, device: string, io: Io): Promise<DeskReading[] | number> {
  const every = device.trim().toLowerCase() === 'all';
  if (every && !(await loadConfig(flags)).sync) {
    io.err('note: no sync server is configured (sync.url in config.json): this computer only\n');
    return readEveryDesk(await hereNow(flags, io), null, Date.now());
  }
  return withSync(flags, io, async (s) => {
    const all = readEveryDesk(await hereNow(flags, io), s.remote.list(), Date.now());
    if (every) return all;
    const found = s.remote.find(device);
    if (!found.ok) {
      io.err(`deskpilot: --device: ${found.message}\n`);
      return EXIT.invalid;
    }
    return all.filter((r) => r.device_id === found.device.id);
  });
}

const statusOf = ({ snapshot: _s, ...r }: DeskReading) => ({ ...r, as_of: new Date(r.as_of).toISOString() });

type Printed = { json: Record<string, unknown>; lines: string[] };

function tabsPrinted(read: DeskReading[], query: string): Printed {
  const tabs = query.trim() ? searchEveryDesk(read, query) : tabsOnEveryDesk(read);
  return { json: { tabs: tabs.map(({ device, tab }) => ({ device, ...tab })) }, lines: tabs.map(({ device, tab }) => `${device}  ${tabLine(tab)}`) };
}

function sitesPrinted(read: DeskReading[]): Printed {
  const sites = sitesOnEveryDesk(read);
  return { json: { sites }, lines: sites.map((s) => `${s.site}  ${s.n}  (${Object.entries(s.devices).map(([d, n]) => `${d} ${n}`).join(', ')})`) };
}

function windowsPrinted(read: DeskReading[]): Printed {
  const windows = windowsOnEveryDesk(read);
  return { json: { windows }, lines: windows.map((w) => `${w.device}  ${windowLine(w)}`) };
}

/** Each device's line (what is known of it and since when), then the rows; or all of it as JSON. */
function print(read: DeskReading[], what: 'chrome' | 'windows', printed: Printed[], json: boolean, io: Io): number {
  const now = Date.now();
  if (json) io.out(JSON.stringify({ devices: read.map(statusOf), ...Object.assign({}, ...printed.map((p) => p.json)) }, null, 2) + '\n');
  else io.out([...read.map((r) => readingLine(r, now, what)), ...printed.flatMap((p) => p.lines)].join('\n') + '\n');
  return EXIT.ok;
}

export async function runTabsEverywhere(flags: ConfigFlags, o: EveryDeviceArgs & { query: string; bySite: boolean }, io: Io): Promise<number> {
  const read = await readings(flags, o.device, io);
  if (typeof read === 'number') return read;
  return print(read, 'chrome', [o.bySite ? sitesPrinted(read) : tabsPrinted(read, o.query)], o.json, io);
}

export async function runWindowsEverywhere(flags: ConfigFlags, o: EveryDeviceArgs, io: Io): Promise<number> {
  const read = await readings(flags, o.device, io);
  if (typeof read === 'number') return read;
  return print(read, 'windows', [windowsPrinted(read)], o.json, io);
}

/**
 * `run "list my tabs on all my computers"`: the words without "on all my computers" are planned
 * by the offline matcher against this desk; a plan that only reads is answered from every
 * device's desk, anything else is refused (acting goes to one device at a time).
 */
export async function runWordsEverywhere(flags: ConfigFlags, o: { rest: string; json: boolean }, io: Io): Promise<number> {
  const read = await readings(flags, 'all', io);
  if (typeof read === 'number') return read;
  const { planLocally } = await import('../engine/local-planner');
  const { readsAcrossDevices } = await import('../engine/local-planner/every-device-words');
  const { Envelope } = await import('../protocol/commands');
  // The matcher's answer checked like every planner's (it is plain data until then).
  const planned = Envelope.safeParse(planLocally({ text: o.rest, context: read[0]!.snapshot!, turns: [] }).envelope);
  const envelope = planned.success ? planned.data : { commands: [], needs_clarification: true, clarification_reason: null };
  if (envelope.needs_clarification || !readsAcrossDevices(envelope.commands)) {
    io.err(
      `deskpilot: "on all my computers" answers what reads — list or search tabs (by words), count tabs per site, list apps and windows — ` +
        `and "${o.rest}" is not one of those; to act, name one device ("… on the work laptop"). Nothing was run.\n`,
    );
    return EXIT.invalid;
  }
  const printed = envelope.commands.map((c) =>
    c.type === 'count_tabs_by_domain' ? sitesPrinted(read) : c.type === 'list_apps' ? windowsPrinted(read) : tabsPrinted(read, c.type === 'search_tabs' ? (c.query ?? '') : ''),
  );
  return print(read, envelope.commands.every((c) => c.type === 'list_apps') ? 'windows' : 'chrome', printed, o.json, io);
}
