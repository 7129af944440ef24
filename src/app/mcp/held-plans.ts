import type { Envelope } from '../../protocol/commands';
import type { ContextSnapshot } from '../../protocol/context';
import type { PreparedBatch } from '../../protocol/prepared-batch';

// The options `do` offered when it asked back ("which one?"), by the words that asked, each
// prepared and ready to run: the call that comes back with the user's choice runs the option as
// it was offered — planning again could pick other tabs. (A yes to something that closes is
// given with a confirm_token instead: confirm-gate.ts.)

const HOLD_MS = 5 * 60 * 1000;

export interface HeldPlan {
  batch: PreparedBatch;
  envelope: Envelope;
  /** What it was planned against, when that was more than this desk (every device's). */
  snapshot?: ContextSnapshot;
}

/** A question's options: the words shown for each, and each one's plan. */
export interface Offered {
  labels: string[];
  plans: HeldPlan[];
}

const key = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

export class HeldPlans {
  private readonly offered = new Map<string, Offered & { at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  offer(text: string, options: Offered): void {
    this.expire();
    this.offered.set(key(text), { ...options, at: this.now() });
  }

  /** The options offered for these words, if still waiting. */
  get(text: string): Offered | null {
    this.expire();
    return this.offered.get(key(text)) ?? null;
  }

  drop(text: string): void {
    this.offered.delete(key(text));
  }

  private expire(): void {
    for (const [k, p] of this.offered) if (this.now() - p.at > HOLD_MS) this.offered.delete(k);
  }
}
