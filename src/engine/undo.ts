import type { CommandResult } from '../protocol/record';
import type { UndoEntry } from '../protocol/undo';
import { errorMessage } from './errors';
import { formatRect, overlapArea } from './geometry';
import type { UndoStore } from './ports';
import { readDesk, sizeNote, type WindowOpsPorts } from './window-ops';

// Undo puts windows back where the last N window-changing batches found them, newest first.
// What cannot come back (a closed app) is said, not pretended.

export async function undoBatches(steps: number, ports: WindowOpsPorts & { undo: UndoStore }): Promise<CommandResult> {
  // The desk first: when the window backend is unavailable the stack must stay as it was.
  const desk = await readDesk(ports);
  const entries = await ports.undo.pop(steps);
  if (entries.length === 0) return { ok: true, message: 'Nothing to undo', data: { undone: 0 } };
  const lines: string[] = [];
  let ok = true;
  for (const entry of entries) {
    const r = await undoOne(entry, desk);
    ok &&= r.ok;
    lines.push(...r.lines);
  }
  const what = entries.map((e) => `"${e.label}"`).join(', ');
  return { ok, message: `Undid ${what}: ${lines.join('; ') || 'nothing had changed'}`, data: { undone: entries.length, batches: entries.map((e) => e.batchId) } };
}

async function undoOne(entry: UndoEntry, desk: Awaited<ReturnType<typeof readDesk>>): Promise<{ ok: boolean; lines: string[] }> {
  const lines: string[] = [];
  let ok = true;
  const live = new Set((await desk.backend.listWindows()).map((w) => w.id));
  for (const w of entry.windows) {
    if (!live.has(w.id)) {
      lines.push(`${w.app}'s window is gone, so it stays gone`);
      continue;
    }
    if (!desk.monitors.some((m) => overlapArea(w.before, m.bounds) > 0)) {
      // Windows parks minimised windows far off-screen; moving one back there would hide it.
      lines.push(`${w.app} was minimised before; it stays where it is now`);
      continue;
    }
    try {
      await desk.backend.restore(w.id);
      const got = await desk.backend.setFrameBounds(w.id, w.before);
      const wasMinimized = w.minimized ? ' (it was minimised before; left visible)' : '';
      lines.push(`${w.app} back at ${formatRect(got)}${sizeNote(w.before, got)}${wasMinimized}`);
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
