import type { ConfigFlags } from '../platform/config/load-config';
import { windowRows, windowsText } from '../engine/window-listing';
import { openDesk } from './open-desk';
import { EXIT } from './exit-codes';
import type { Io } from './io';

// `deskpilot windows [--json]`: every window of this desk with the id window commands take.

export async function runWindows(flags: ConfigFlags, o: { json: boolean }, io: Io): Promise<number> {
  const desk = await openDesk(flags, io);
  try {
    const snap = await desk.snapshot({ summaries: false });
    if (!snap.sources.windows.ok) {
      io.err(`windows are unavailable: ${snap.sources.windows.message}\n`);
      return EXIT.failed;
    }
    const rows = windowRows(snap);
    io.out(o.json ? JSON.stringify({ monitors: snap.monitors, windows: rows }, null, 2) + '\n' : windowsText(rows) + '\n');
    return EXIT.ok;
  } finally {
    await desk.close();
  }
}
