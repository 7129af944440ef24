import { screen } from 'electron';
import type { RawMonitor } from '../engine/ports';

// Electron knows the displays on every OS (node-window-manager exports none on macOS), in
// DIP; scaleFactor lets the window backend convert where the OS reports physical pixels.
export async function screenMonitors(): Promise<RawMonitor[]> {
  const primary = screen.getPrimaryDisplay().id;
  return screen.getAllDisplays().map((d) => ({
    id: String(d.id),
    name: d.label || `Display ${d.id}`,
    bounds: [d.bounds.x, d.bounds.y, d.bounds.x + d.bounds.width, d.bounds.y + d.bounds.height],
    workArea: [d.workArea.x, d.workArea.y, d.workArea.x + d.workArea.width, d.workArea.y + d.workArea.height],
    primary: d.id === primary,
    scale: d.scaleFactor,
  }));
}
