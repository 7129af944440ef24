// The executor resolves an app by its name, exactly and case-insensitively, so two apps with the
// same name would make that name ambiguous. Rather than dropping one (and with it its window keys
// and the only way to launch it), the first keeps the plain name and later ones get a qualifier.

/**
 * Returns the apps with names unique case-insensitively. Apps earlier in the input keep their
 * names (callers pass them in precedence order); a later duplicate becomes "Name (qualifier)",
 * and "Name (qualifier 2)"… should even that be taken.
 */
export function withUniqueNames<T extends { name: string }>(apps: readonly T[], qualifier: (app: T) => string): T[] {
  const taken = new Set(apps.map((a) => a.name.toLowerCase()));
  const claimed = new Set<string>();
  return apps.map((app) => {
    const key = app.name.toLowerCase();
    if (!claimed.has(key)) {
      claimed.add(key);
      return app;
    }
    const base = `${app.name} (${qualifier(app)}`;
    let name = `${base})`;
    for (let n = 2; taken.has(name.toLowerCase()) || claimed.has(name.toLowerCase()); n++) name = `${base} ${n})`;
    claimed.add(name.toLowerCase());
    taken.add(name.toLowerCase());
    return { ...app, name };
  });
}

/** Case-insensitive by name, then by id: a stable order for prompts and menus. */
export function byName<T extends { name: string; id: string }>(a: T, b: T): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
