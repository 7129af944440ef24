import { z } from 'zod';
import type { TurnStore } from '../../engine/ports';
import type { Turn } from '../../protocol/planning';
import { readJsonFile, writeJsonFile } from './json-file';

// The last few turns, so "now put it on the right" works across separate CLI invocations.
// Turns older than the window below are forgotten: a follow-up an hour later is a new topic.

const FOLLOW_UP_WINDOW_MS = 15 * 60 * 1000;
const KEEP = 10;

const TurnSchema = z.strictObject({ at: z.number(), text: z.string(), envelope: z.unknown(), outcome: z.string() });
const TurnFile = z.strictObject({ version: z.literal(1), turns: z.array(TurnSchema) });

export class TurnFileStore implements TurnStore {
  constructor(
    readonly file: string,
    private readonly now: () => number = Date.now,
  ) {}

  async recent(limit: number): Promise<Turn[]> {
    const fresh = (await this.read()).filter((t) => this.now() - t.at < FOLLOW_UP_WINDOW_MS);
    return fresh.slice(-limit);
  }

  async append(turn: Turn): Promise<void> {
    const turns = [...(await this.read()), turn].filter((t) => this.now() - t.at < FOLLOW_UP_WINDOW_MS).slice(-KEEP);
    await writeJsonFile(this.file, { version: 1, turns });
  }

  private async read(): Promise<Turn[]> {
    // A broken turns file only costs follow-up context, never a command.
    try {
      return (await readJsonFile(this.file, TurnFile, { version: 1 as const, turns: [] })).turns as Turn[];
    } catch {
      return [];
    }
  }
}
