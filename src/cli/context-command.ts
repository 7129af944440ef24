import type { ConfigFlags } from '../platform/config/load-config';
import { openDesk } from './open-desk';
import { EXIT } from './exit-codes';
import { formatContext } from './format-context';
import type { Io } from './io';

export async function runContext(flags: ConfigFlags, o: { json: boolean; summaries: boolean }, io: Io): Promise<number> {
  const desk = await openDesk(flags, io);
  try {
    const snap = await desk.snapshot({ summaries: o.summaries });
    io.out(o.json ? JSON.stringify(snap, null, 2) + '\n' : formatContext(snap));
    // A snapshot with a source missing is still a snapshot; say so on stderr for --json users.
    if (o.json && !snap.sources.chrome.ok) io.err(`chrome: ${snap.sources.chrome.message}\n`);
    return EXIT.ok;
  } finally {
    await desk.close();
  }
}
