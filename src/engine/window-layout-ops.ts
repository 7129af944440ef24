import type { MonitorInfo } from '../protocol/context';
import type { CommandResult } from '../protocol/record';
import type { WindowState } from '../protocol/window-layouts';
import type { BatchFront } from './batch-front';
import { columns, formatRect } from './geometry';
import type { RawWindow } from './ports';
import type { UndoCollector } from './undo-collector';
import { floatedNote, placeWindow, readDesk, sameMonitor, sizeNote, stillOpen as openWindow, type Desk, type WindowOpsPorts } from './window-ops';

// Swapping, tiling, minimising, restoring and full screen. Like every window operation they
// start from a fresh window list and act on the windows the batch was resolved to.

export interface AppWindowRef {
  app: string;
  windowId: string;
}

/** The resolved windows, still open and still their app's; a window that closed since is reported, never replaced. */
const stillOpen = (desk: Desk, refs: readonly AppWindowRef[]): RawWindow[] => refs.map(({ app, windowId }) => openWindow(desk, windowId, app));

/** Un-minimises first: a minimised window's frame may be a parking spot, not where it shows. */
async function shown(desk: Desk, w: RawWindow, app: string, undo: UndoCollector): Promise<RawWindow> {
  if (!w.minimized) return w;
  undo.touch(w, app);
  await desk.backend.restore(w.id);
  return (await desk.backend.listWindows()).find((x) => x.id === w.id) ?? w;
}

export async function swapApps(refs: readonly AppWindowRef[], ports: WindowOpsPorts, undo: UndoCollector, front?: BatchFront): Promise<CommandResult> {
  const desk = await readDesk(ports);
  const [a, b] = stillOpen(desk, refs);
  const [wa, wb] = [await shown(desk, a!, refs[0]!.app, undo), await shown(desk, b!, refs[1]!.app, undo)];
  const targets = [wb.bounds, wa.bounds];
  const got = [await placeWindow(desk.backend, wa, refs[0]!.app, targets[0]!, undo), await placeWindow(desk.backend, wb, refs[1]!.app, targets[1]!, undo)];
  [wa, wb].forEach((w, i) => front?.placed(desk.backend, w, refs[i]!.app, desk.windows, undo, got[i]!));
  const parts = refs.map((r, i) => `${r.app} to ${formatRect(got[i]!)}${sizeNote(targets[i]!, got[i]!)}${floatedNote([wa, wb][i]!)}`);
  return { ok: true, message: `Swapped ${refs[0]!.app} and ${refs[1]!.app}: ${parts.join(', ')}`, data: { windows: refs.map((r, i) => ({ window_id: r.windowId, bounds: got[i] })) } };
}

export async function tileApps(
  refs: readonly AppWindowRef[],
  monitor: MonitorInfo,
  ports: WindowOpsPorts,
  undo: UndoCollector,
  front?: BatchFront,
): Promise<CommandResult> {
  const desk = await readDesk(ports);
  const windows = stillOpen(desk, refs);
  const on = sameMonitor(monitor, desk.monitors);
  const frames = columns(on.work_area, refs.length);
  const parts: string[] = [];
  const placed: Array<{ window_id: string; bounds: number[] }> = [];
  for (const [i, ref] of refs.entries()) {
    const w = await shown(desk, windows[i]!, ref.app, undo);
    const got = await placeWindow(desk.backend, w, ref.app, frames[i]!, undo);
    front?.placed(desk.backend, w, ref.app, desk.windows, undo, got);
    parts.push(`${ref.app} at ${formatRect(got)}${sizeNote(frames[i]!, got)}${floatedNote(w)}`);
    placed.push({ window_id: w.id, bounds: got });
  }
  return { ok: true, message: `Tiled ${refs.length} apps side by side on ${on.name}: ${parts.join('; ')}`, data: { monitor: on.name, windows: placed } };
}

export async function setAppState(
  ref: AppWindowRef,
  state: WindowState,
  ports: WindowOpsPorts,
  undo: UndoCollector,
  front?: BatchFront,
): Promise<CommandResult> {
  const desk = await readDesk(ports);
  const [w] = stillOpen(desk, [ref]);
  undo.touch(w!, ref.app);
  switch (state) {
    case 'minimized':
      if (!w!.minimized) await desk.backend.minimize(w!.id);
      return { ok: true, message: `Minimised ${ref.app}`, data: { window_id: w!.id } };
    case 'normal':
      await desk.backend.restore(w!.id);
      front?.placed(desk.backend, w!, ref.app, desk.windows, undo);
      return { ok: true, message: `Restored ${ref.app}`, data: { window_id: w!.id } };
    case 'fullscreen':
      if (w!.minimized) await desk.backend.restore(w!.id);
      await desk.backend.setFullscreen(w!.id, true);
      front?.placed(desk.backend, w!, ref.app, desk.windows, undo);
      return { ok: true, message: `Made ${ref.app} full screen`, data: { window_id: w!.id } };
  }
}
