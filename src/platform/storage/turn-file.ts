import { z } from 'zod';
import type { TurnStore } from '../../engine/ports';
import type { Turn } from '../../protocol/planning';
import { boundTurn, TurnSchema } from '../../protocol/turn';
import { formatFieldError, zodErrors } from '../../protocol/validation';
import { withFileLock } from './file-lock';
import { readJsonFile, writeJsonFile } from './json-file';
import { StateFileError } from './state-file';

// The last few turns, so "now put it on the right" works across separate CLI invocations.
// Turns older than the window below are forgotten: a follow-up an hour later is a new topic.
// A turn is stored within the limits the service socket applies (protocol/turn.ts), and one
// that does not fit them (written by an older DeskPilot, edited by hand) is skipped, and said
// once, while the others are still served: one bad record never fails a whole answer.

const FOLLOW_UP_WINDOW_MS = 15 * 60 * 1000;
const KEEP = 10;

const TurnFile = z.strictObject({ version: z.literal(1), turns: z.array(z.unknown()) });

export class TurnFileStore implements TurnStore {
  private readonly warned = new Set<string>();

  constructor(
    readonly file: string,
    private readonly now: () => number = Date.now,
    /** Where a problem with the file is said (stderr in the CLI, the log in the app). */
    private readonly warn: (message: string) => void = (m) => console.warn(`deskpilot: ${m}`),
  ) {}

  async recent(limit: number): Promise<Turn[]> {
    const turns = await this.read();
    return (turns ?? []).filter((t) => this.now() - t.at < FOLLOW_UP_WINDOW_MS).slice(-limit);
  }

  async append(turn: Turn): Promise<void> {
    try {
      await withFileLock(this.file, async () => {
        const turns = await this.read();
        // A file that cannot be read is the user's to fix, never replaced.
        if (turns === null) return;
        const kept = [...turns, boundTurn(turn)].filter((t) => this.now() - t.at < FOLLOW_UP_WINDOW_MS).slice(-KEEP);
        await writeJsonFile(this.file, { version: 1, turns: kept });
      });
    } catch (e) {
      if (!(e instanceof StateFileError)) throw e;
      this.problem(e);
    }
  }

  /**
   * null when the file cannot be read: that costs follow-up context, never a command, so it
   * is said (once) rather than thrown.
   */
  private async read(): Promise<Turn[] | null> {
    try {
      const { turns } = await readJsonFile(this.file, TurnFile, { version: 1 as const, turns: [] });
      return turns.flatMap((raw, i) => {
        const parsed = TurnSchema.safeParse(raw);
        if (parsed.success) return [parsed.data as Turn];
        this.say(`${this.file}: turns[${i}] is skipped (${zodErrors(parsed.error, raw).map(formatFieldError).join('; ')})`);
        return [];
      });
    } catch (e) {
      if (!(e instanceof StateFileError)) throw e;
      this.problem(e);
      return null;
    }
  }

  private problem(e: StateFileError): void {
    this.say(`${e.message}. Follow-ups cannot see earlier requests until it is fixed or deleted; it is left as it is.`);
  }

  private say(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.warn(message);
  }
}
