// A recent file or project as a reader found it, before it is bounded and named for the snapshot.

export interface FoundRecent {
  path: string;
  /** The app that recorded it, as that source names it (a .desktop name, "Visual Studio Code", "IntelliJ IDEA"). */
  app: string | null;
  /** Lower-cased names a catalog app of the recording program carries (window keys, program names). */
  appKeys: string[];
  /** ms since the epoch; null: the source keeps no time (VS Code keeps only the order). */
  usedAt: number | null;
  /** Sorting key when usedAt is null: the source file's mtime minus the item's position, so the source's own order holds. */
  orderAt: number;
}

/** An ISO 8601 (or ms-since-epoch) time as ms; null when absent or unreadable. */
export function parseTime(s: string | undefined): number | null {
  if (!s) return null;
  const t = /^\d+$/.test(s) ? Number(s) : Date.parse(s);
  return Number.isFinite(t) ? t : null;
}
