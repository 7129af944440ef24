import type { z } from 'zod';
import { echo } from './echo';

/**
 * A file's refinement that no two of its named items share a name (case-insensitively): adds
 * `duplicate <what> "<name>"` at each repeat, under `key`.
 */
export function uniqueNames<T extends { name: string }>(key: string, what: string) {
  return (file: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    (file[key] as T[]).forEach((item, i) => {
      const name = item.name.toLowerCase();
      if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [key, i, 'name'], message: `duplicate ${what} "${echo(item.name)}"` });
      seen.add(name);
    });
  };
}
