// KWin 5's scripting API numbers screens but does not name them; its D-Bus support information
// (org.kde.KWin /KWin supportInformation, the text `qdbus org.kde.KWin /KWin supportInformation`
// prints) lists each one as "Screen N:" followed by "Name: …", "Geometry: …" and "Scale: …".

export interface ScreenName {
  name: string;
  scale: number | null;
}

/** Screen index → its output name (e.g. "DP-1", "Virtual-0") and scale, from the Screens section. */
export function parseScreenNames(info: string): Map<number, ScreenName> {
  const names = new Map<number, ScreenName>();
  let current: number | null = null;
  for (const raw of info.split('\n')) {
    const line = raw.trim();
    const header = /^Screen (\d+):$/.exec(line);
    if (header) {
      current = Number(header[1]);
      continue;
    }
    // Another section's heading ends the screens (they are followed by "Compositing" and a rule).
    if (/^=+$/.test(line)) current = null;
    if (current === null) continue;
    const name = /^Name: (.+)$/.exec(line);
    if (name) names.set(current, { name: name[1]!.trim(), scale: names.get(current)?.scale ?? null });
    const scale = /^Scale: ([0-9.]+)$/.exec(line);
    const entry = names.get(current);
    if (scale && entry && Number(scale[1]) > 0) entry.scale = Number(scale[1]);
  }
  return names;
}
