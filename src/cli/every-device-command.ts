import { tabLine } from '../engine/planning/compact-context';
import { windowLine } from '../engine/window-listing';
import { readEveryDesk, readingLine, searchEveryDesk, sitesOnEveryDesk, tabsOnEveryDesk, windowsOnEveryDesk, type DeskReading } from '../app/sync/every-desk';
import type { ConfigFlags } from '../platform/config/load-config';
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

async function readings(flags: ConfigFlags, device: string, io: Io): Promise<DeskReading[] | number> {
  return withSync(flags, io, async (s) => {
    const desk = await openDesk(flags, io);
    let here;
    try {
      here = await desk.snapshot({ summaries: false });
    } finally {
      await desk.close();
    }
    const all = readEveryDesk(here, s.remote.list(), Date.now());
    if (device.trim().toLowerCase() === 'all') return all;
    const found = s.remote.find(device);
    if (!found.ok) {
      io.err(`deskpilot: --device: ${found.message}\n`);
      return EXIT.invalid;
    }
    return all.filter((r) => r.device_id === found.device.id);
  });
}

const statusOf = ({ snapshot: _s, ...r }: DeskReading) => ({ ...r, as_of: new Date(r.as_of).toISOString() });

export async function runTabsEverywhere(flags: ConfigFlags, o: EveryDeviceArgs & { query: string; bySite: boolean }, io: Io): Promise<number> {
  const read = await readings(flags, o.device, io);
  if (typeof read === 'number') return read;
  const now = Date.now();
  const status = read.map((r) => readingLine(r, now, 'chrome'));
  if (o.bySite) {
    const sites = sitesOnEveryDesk(read);
    if (o.json) io.out(JSON.stringify({ devices: read.map(statusOf), sites }, null, 2) + '\n');
    else io.out([...status, ...sites.map((s) => `${s.site}  ${s.n}  (${Object.entries(s.devices).map(([d, n]) => `${d} ${n}`).join(', ')})`)].join('\n') + '\n');
    return EXIT.ok;
  }
  const tabs = o.query.trim() ? searchEveryDesk(read, o.query) : tabsOnEveryDesk(read);
  if (o.json) io.out(JSON.stringify({ devices: read.map(statusOf), tabs: tabs.map(({ device, tab }) => ({ device, ...tab })) }, null, 2) + '\n');
  else io.out([...status, ...tabs.map(({ device, tab }) => `${device}  ${tabLine(tab)}`)].join('\n') + '\n');
  return EXIT.ok;
}

export async function runWindowsEverywhere(flags: ConfigFlags, o: EveryDeviceArgs, io: Io): Promise<number> {
  const read = await readings(flags, o.device, io);
  if (typeof read === 'number') return read;
  const now = Date.now();
  const windows = windowsOnEveryDesk(read);
  if (o.json) io.out(JSON.stringify({ devices: read.map(statusOf), windows }, null, 2) + '\n');
  else {
    io.out([...read.map((r) => readingLine(r, now, 'windows')), ...windows.map((w) => `${w.device}  ${windowLine(w)}`)].join('\n') + '\n');
  }
  return EXIT.ok;
}
