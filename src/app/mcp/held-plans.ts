import type { Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import type { PreparedBatch } from '../../protocol/prepared-batch';

// Planned batches waiting for the user's yes, by the words that planned them. When the
// client cannot ask the user, `do` refuses and shows what would close; the call that comes
// back with confirm: true runs exactly that batch — planning again could pick other tabs.

const HOLD_MS = 5 * 60 * 1000;

export interface HeldPlan {
  batch: PreparedBatch;
  envelope: Envelope;
  /** What it was planned against, when that was more than this desk (every device's). */
  snapshot?: ContextSnapshot;
}

const key = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

export class HeldPlans {
  private readonly held = new Map<string, HeldPlan & { at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  hold(text: string, plan: HeldPlan): void {
    this.expire();
    this.held.set(key(text), { ...plan, at: this.now() });
  }

  /** The plan held for these words, once. */
  take(text: string): HeldPlan | null {
    this.expire();
    const plan = this.held.get(key(text));
    this.held.delete(key(text));
    return plan ?? null;
  }

  private expire(): void {
    for (const [k, p] of this.held) if (this.now() - p.at > HOLD_MS) this.held.delete(k);
  }
}
