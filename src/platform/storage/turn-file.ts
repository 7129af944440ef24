import { z } from 'zod';
import type { TurnStore } from '../../engine/ports';
import type { Turn } from '../../protocol/planning';
import { withFileLock } from './file-lock';
import { readJsonFile, writeJsonFile } from './json-file';
import { StateFileError } from './state-file';

// The last few turns, so "now put it on the right" works across separate CLI invocations.
// Turns older than the window below are forgotten: a follow-up an hour later is a new topic.

const FOLLOW_UP_WINDOW_MS = 15 * 60 * 1000;
const KEEP = 10;

const TurnSchema = z.strictObject({ at: z.number(), text: z.string(), envelope: z.unknown(), outcome: z.string() });
const TurnFile = z.strictObject({ version: z.literal(1), turns: z.array(TurnSchema) });

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
        await writeJsonFile(this.file, { version: 1, turns: [...turns, turn].filter((t) => this.now() - t.at < FOLLOW_UP_WINDOW_MS).slice(-KEEP) });
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
      return (await readJsonFile(this.file, TurnFile, { version: 1 as const, turns: [] })).turns as Turn[];
    } catch (e) {
      if (!(e instanceof StateFileError)) throw e;
      this.problem(e);
      return null;
    }
  }

  private problem(e: StateFileError): void {
    if (this.warned.has(e.message)) return;
    this.warned.add(e.message);
    this.warn(`${e.message}. Follow-ups cannot see earlier requests until it is fixed or deleted; it is left as it is.`);
  }
}
