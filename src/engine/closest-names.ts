// "Unknown app, did you mean …": no string-similarity library is installed, and this needs little —
// prefix/substring matches first, then typos by Damerau-Levenshtein (optimal string alignment)
// distance against the whole name or any of its words.

/** Edits (insert, delete, substitute, swap two adjacent characters) between a and b. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[rows - 1]![cols - 1]!;
}

const normalize = (s: string) => s.toLowerCase().trim().replace(/\s+/g, ' ');
const words = (s: string) => s.split(/[\s\-_.()]+/).filter(Boolean);

/** Typos tolerated for a query of this length: none would suggest nonsense for "ab". */
const maxTypos = (length: number) => (length <= 2 ? 0 : length <= 5 ? 1 : length <= 9 ? 2 : 3);

/** Lower is better; null when the name is no plausible match. */
function rank(query: string, name: string): [tier: number, distance: number] | null {
  if (name === query) return [0, 0];
  if (name.startsWith(query)) return [1, name.length - query.length];
  const nameWords = words(name);
  if (nameWords.some((w) => w.startsWith(query))) return [2, name.length - query.length];
  if (name.includes(query) || (name.length >= 3 && query.includes(name))) return [3, Math.abs(name.length - query.length)];
  const distance = Math.min(editDistance(query, name), ...nameWords.map((w) => editDistance(query, w)));
  return distance <= maxTypos(query.length) ? [4, distance] : null;
}

/**
 * Up to `max` of `names` ranked by similarity to `query`, case-insensitively: exact, then prefix,
 * then word prefix, then substring, then close typos. Names that match in none of these ways are
 * left out, so the result may be empty.
 */
export function closestNames(query: string, names: string[], max = 5): string[] {
  const q = normalize(query);
  if (!q || max <= 0) return [];
  const ranked: Array<{ name: string; tier: number; distance: number }> = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const r = rank(q, normalize(name));
    if (r) ranked.push({ name, tier: r[0], distance: r[1] });
  }
  // Stable: equally good names keep the caller's order.
  ranked.sort((a, b) => a.tier - b.tier || a.distance - b.distance);
  return ranked.slice(0, max).map((r) => r.name);
}
