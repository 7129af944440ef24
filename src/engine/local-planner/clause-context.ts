import type { ContextSnapshot } from '../../protocol/context';

// What every clause rule may consult besides its own words.

export interface ClauseContext {
  snap: ContextSnapshot;
  /**
   * The app "it" / "that window" stands for: the app of an earlier clause in the same
   * sentence ("open slack and put it left"), else of the previous turn. null: nothing clear.
   */
  referent: string | null;
  /** The sentence as typed, for copying addresses with their original letter case. */
  original: string;
  /**
   * Monitor names (by lower-case app name) earlier clauses of this sentence moved apps to:
   * "move terminal to the left monitor and maximise it" maximises it there.
   */
  placed?: ReadonlyMap<string, string>;
}
