import type { MonitorInfo } from '../protocol/context';
import type { Preset, PresetPlacement } from '../protocol/preset';
import type { CommandResult } from '../protocol/record';
import { errorMessage } from './errors';
import { formatRect, fromRelative, overlapArea, toRelative } from './geometry';
import { monitorOf } from './monitor-roles';
import { normalizeUrl } from './normalize-url';
import type { ChromeBackend, RawWindow, Rect4 } from './ports';
import { monitorFor } from './resolve';
import type { BatchFront } from './batch-front';
import type { UndoCollector } from './undo-collector';
import { placeWindow, readDesk, sizeNote, waitForWindow, windowsOf, type Desk, type WindowOpsPorts } from './window-ops';

// Applying a preset is one pass: launch what is missing (in parallel), wait for the windows
// (bounded), place everything, open the URLs, and report per app. A layout made for more
// monitors than are connected lands on what exists and says so.

interface Placed {
  app: string;
  ok: boolean;
  message: string;
  /** The window placed, to raise once every placement is done. */
  window?: RawWindow;
}

export async function applyPreset(
  preset: Preset,
  ports: WindowOpsPorts & { chrome: () => Promise<ChromeBackend> },
  undo: UndoCollector,
  front?: BatchFront,
): Promise<CommandResult> {
  const desk = await readDesk(ports);
  const placed = await Promise.all(preset.placements.map((p) => applyPlacement(p, desk, ports, undo)));
  // Placements run in parallel; the layout comes to the front in the preset's own order at the end of the batch.
  for (const p of placed) if (p.window) front?.placed(desk.backend, p.window, p.app, desk.windows, undo);
  const urls = await openUrls(preset.urls, ports.chrome);
  const all = [...placed, ...urls].map(({ window: _, ...rest }) => rest);
  const ok = all.every((p) => p.ok);
  const lines = all.map((p) => `${p.ok ? '✓' : '✗'} ${p.message}`);
  return {
    ok,
    message: `Applied preset "${preset.name}"${ok ? '' : ' partly'}: ${lines.join('; ')}`,
    data: { placements: all },
  };
}

async function applyPlacement(p: PresetPlacement, desk: Desk, ports: WindowOpsPorts, undo: UndoCollector): Promise<Placed> {
  try {
    let w = windowsOf(desk, p.app)[0];
    let started = false;
    if (!w) {
      const entry = desk.catalog.find((a) => a.name.toLowerCase() === p.app.toLowerCase());
      if (!p.launch) return { app: p.app, ok: true, message: `${p.app} is not running (the preset does not launch it)` };
      if (!entry) return { app: p.app, ok: false, message: `${p.app} is not running and is not an installed app` };
      const { pid } = await ports.apps.launch(entry);
      w = await waitForWindow(desk, entry.name, pid, new Set(desk.windows.map((x) => x.id)), ports.launchTimeoutMs ?? 10_000);
      started = true;
    }
    const { frame, note } = placementFrame(p, desk.monitors);
    const got = await placeWindow(desk.backend, w, p.app, frame, undo);
    const on = monitorOf(got, desk.monitors)?.name;
    return {
      app: p.app,
      ok: true,
      message: `${started ? 'started and placed' : 'placed'} ${p.app}${on ? ` on ${on}` : ''} (${formatRect(got)})${sizeNote(frame, got)}${note}`,
      window: w,
    };
  } catch (e) {
    return { app: p.app, ok: false, message: `${p.app}: ${errorMessage(e)}` };
  }
}

/** Where a placement lands on the monitors that exist now, and a note when it adapted. */
export function placementFrame(p: PresetPlacement, monitors: readonly MonitorInfo[]): { frame: Rect4; note: string } {
  const main = monitorFor(monitors, 'main');
  if (!main) throw new Error('no monitor is connected');
  if (p.bounds) {
    const b = p.bounds as Rect4;
    if (monitors.some((m) => overlapArea(b, m.bounds) > 0)) return { frame: b, note: '' };
    const area = main.work_area;
    const frame = fromRelative([0.1, 0.1, 0.8, 0.8], area);
    return { frame, note: ` — its saved position ${formatRect(b)} is on no connected monitor, so it went to ${main.name}` };
  }
  const wanted = p.monitor!;
  let monitor = monitors.find((m) => m.name === wanted) ?? (isRole(wanted) ? monitorFor(monitors, wanted) : null);
  let note = '';
  if (!monitor) {
    monitor = main;
    note = ` — monitor ${wanted} is not connected, so it went to ${main.name}`;
  } else if (isRole(wanted) && wanted !== 'main' && monitors.length === 1) {
    note = ` — only one monitor is connected, so "${wanted}" is ${monitor.name}`;
  }
  return { frame: fromRelative(p.rect!, monitor.work_area), note };
}

const isRole = (m: string): m is 'main' | 'left' | 'right' => m === 'main' || m === 'left' || m === 'right';

async function openUrls(urls: readonly string[], chrome: () => Promise<ChromeBackend>): Promise<Placed[]> {
  const out: Placed[] = [];
  for (const raw of urls) {
    const n = normalizeUrl(raw);
    if (!n.ok) {
      out.push({ app: 'Chrome', ok: false, message: `did not open ${raw}: ${n.reason}` });
      continue;
    }
    try {
      await (await chrome()).openUrl(n.url);
      out.push({ app: 'Chrome', ok: true, message: `opened ${n.url}` });
    } catch (e) {
      out.push({ app: 'Chrome', ok: false, message: `did not open ${n.url}: ${errorMessage(e)}` });
    }
  }
  return out;
}

/**
 * A preset from the current arrangement: one placement per app (its most recent window),
 * relative to the work area of the monitor holding it. With two or more monitors the
 * leftmost/rightmost are saved as "left"/"right" so the preset follows them to another desk.
 */
export function capturePreset(name: string, desk: Pick<Desk, 'windows' | 'nameOf' | 'monitors'>, apps?: readonly string[]): Preset {
  const wanted = apps?.map((a) => a.toLowerCase());
  const seen = new Set<string>();
  const placements: PresetPlacement[] = [];
  for (const w of desk.windows) {
    const app = desk.nameOf(w);
    const key = app.toLowerCase();
    if (w.minimized || seen.has(key) || (wanted && !wanted.includes(key))) continue;
    const monitor = monitorOf(w.bounds, desk.monitors);
    if (!monitor) continue;
    seen.add(key);
    placements.push({ app, monitor: monitorLabel(monitor, desk.monitors), rect: toRelative(w.bounds, monitor.work_area), launch: true });
  }
  return { name, placements, urls: [] };
}

function monitorLabel(m: MonitorInfo, all: readonly MonitorInfo[]): string {
  if (all.length === 1) return 'main';
  if (m.roles.includes('left')) return 'left';
  if (m.roles.includes('right')) return 'right';
  return m.name;
}

export const missingApps = (desk: Pick<Desk, 'windows' | 'nameOf'>, apps: readonly string[]): string[] =>
  apps.filter((a) => !desk.windows.some((w: RawWindow) => desk.nameOf(w).toLowerCase() === a.toLowerCase()));
