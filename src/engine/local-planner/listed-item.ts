import type { Turn } from '../../protocol/planning';
import type { ClauseResult } from './result';
import { ok } from './result';
import type { ClauseContext } from './clause-context';
import { parseNumber } from './text';

// "open the second one" right after DeskPilot listed recent files ("1. notes.md in gedit
// (20 minutes ago) 2. invoice.pdf in Chromium …"): the item at that place in the list just
// shown. Only when the previous turn's outcome is such a numbered list and the item is one of
// the snapshot's recent files or projects by its exact name; anything else is left alone.

const PICK = /^(?:(?:re-?open|open|load)\s+)?(?:the\s+)?(\S+)(?:\s+(?:one|file|project|item))?$/;
const ITEM = /(?:^|\s)(\d{1,2})\.\s+(\S+)/g;

const baseName = (path: string) => path.replace(/[/\\]+$/, '').split(/[/\\]/).pop() ?? path;

/** The numbered items of a listing, by number: "1. a.md in gedit 2. b.pdf …" → {1: "a.md", 2: "b.pdf"}. */
function listedNames(outcome: string): Map<number, string> {
  const names = new Map<number, string>();
  for (const m of outcome.matchAll(ITEM)) names.set(Number(m[1]), m[2]!);
  return names;
}

export function listedItemRule(clause: string, turns: readonly Turn[], ctx: ClauseContext): ClauseResult | null {
  const m = PICK.exec(clause);
  const last = turns[turns.length - 1];
  if (!m || !last) return null;
  const n = /^\d+$/.test(m[1]!) ? null : parseNumber(m[1]!);
  const named = n === null ? undefined : listedNames(last.outcome).get(n);
  if (!named) return null;
  const items = [...(ctx.snap.recent_files ?? []), ...(ctx.snap.recent_projects ?? [])].filter((i) => baseName(i.path) === named);
  if (items.length !== 1) return null;
  return ok({ type: 'open_recent', path: items[0]!.path });
}
