import type { CommandResult } from '../protocol/record';
import type { UndoEntry } from '../protocol/undo';
import { errorMessage } from './errors';
import { overlapArea } from './geometry';
import type { ChromeBackend, UndoStore } from './ports';
import { undoTabs } from './undo-tabs';
import { readDesk, sizeNote, type WindowOpsPorts } from './window-ops';

// Undo puts windows back where the last N batches found them, and tabs back as they were,
// newest first. What cannot come back (a closed app, a reload) is said, not pretended.

type Desk = Awaited<ReturnType<typeof readDesk>>;

const touchesWindows = (e: UndoEntry) => e.windows.length > 0 || e.focused !== null;

/**
 * Said of a batch whose entry is still pending (batch-record.ts): it stopped part-way, so what
 * its last command did may not have been recorded — said, and never made up by undoing the batch before it.
 */
const STOPPED_PART_WAY = 'it stopped part-way, when DeskPilot was stopped while running it: what it did up to then is undone; what the command running then did may not be';

export async function undoBatches(
  steps: number,
  ports: WindowOpsPorts & { undo: UndoStore; chrome: () => Promise<ChromeBackend> },
): Promise<CommandResult> {
  // The desk first: when the window backend is unavailable the stack must stay as it was.
  let desk: Desk | null = null;
  let deskFailure: unknown = null;
  try {
    desk = await readDesk(ports);
  } catch (e) {
    deskFailure = e;
  }
  const entries = await ports.undo.pop(steps);
  if (entries.length === 0) {
    if (deskFailure) throw deskFailure;
    return { ok: true, message: 'Nothing to undo', data: { undone: 0 } };
  }
  if (!desk && entries.some(touchesWindows)) {
    // Back on the stack, oldest first, as they were.
    for (const e of [...entries].reverse()) await ports.undo.push(e);
    throw deskFailure;
  }
  const lines: string[] = [];
  const restored: Restored[] = [];
  let ok = true;
  for (const entry of entries) {
    const r = await undoOne(entry, desk, ports.chrome, restored);
    ok &&= r.ok;
    lines.push(...r.lines);
  }
  const what = entries.map((e) => `"${e.label}"${e.pending ? ` (${STOPPED_PART_WAY})` : ''}`).join(', ');
  const none = entries.some((e) => e.pending) ? 'nothing it had recorded can be undone' : 'nothing had changed';
  // The sentence says where windows went in words; where exactly is in `restored` (--json, --verbose).
  return { ok, message: `Undid ${what}: ${lines.join('; ') || none}`, data: { undone: entries.length, batches: entries.map((e) => e.batchId), restored } };
}

/** A window put back, and the frame it got. */
interface Restored {
  app: string;
  window_id: string;
  bounds: number[];
}

async function undoOne(
  entry: UndoEntry,
  desk: Desk | null,
  chrome: () => Promise<ChromeBackend>,
  restored: Restored[],
): Promise<{ ok: boolean; lines: string[] }> {
  const lines: string[] = [];
  let ok = true;
  if (entry.tabs?.length) {
    const r = await undoTabs(entry.tabs, chrome);
    ok &&= r.ok;
    lines.push(...r.lines);
  }
  if (!desk) {
    for (const what of entry.irreversible) lines.push(`cannot undo: ${what}`);
    return { ok, lines };
  }
  const live = new Set((await desk.backend.listWindows()).map((w) => w.id));
  for (const w of entry.windows) {
    if (!live.has(w.id)) {
      lines.push(`${w.app}'s window is gone, so it stays gone`);
      continue;
    }
    try {
      if (!desk.monitors.some((m) => overlapArea(w.before, m.bounds) > 0)) {
        // Windows parks minimised windows far off-screen: moving one back there would hide it
        // without minimising it, so it is minimised where it is instead.
        if (w.minimized) await desk.backend.minimize(w.id);
        lines.push(w.minimized ? `${w.app} minimised again` : `${w.app} was off-screen before; it stays where it is now`);
        continue;
      }
      await desk.backend.restore(w.id);
      let got = await desk.backend.setFrameBounds(w.id, w.before);
      // A window that was tiled goes back into the layout from the place it had (its workspace);
      // the layout, not the frame asked for, then sets its frame.
      const retiled = w.tiled === true && desk.backend.retile !== undefined;
      if (retiled) got = await desk.backend.retile!(w.id);
      // The frame first (it is where the window returns to from either state), then the state.
      if (w.fullscreen) await desk.backend.setFullscreen(w.id, true);
      if (w.minimized) await desk.backend.minimize(w.id);
      const state = w.fullscreen ? ', in full screen again' : w.minimized ? ', minimised again' : '';
      lines.push(`${w.app} back where it was${retiled ? ', tiled again' : sizeNote(w.before, got)}${state}`);
      restored.push({ app: w.app, window_id: w.id, bounds: got });
    } catch (e) {
      ok = false;
      lines.push(`${w.app} could not be moved back: ${errorMessage(e)}`);
    }
  }
  if (entry.focused && live.has(entry.focused)) {
    await desk.backend.focus(entry.focused).catch(() => undefined);
  }
  for (const what of entry.irreversible) lines.push(`cannot undo: ${what}`);
  return { ok, lines };
}
