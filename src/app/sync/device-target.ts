import type { DeviceRow } from '../../protocol/sync';

// "close my youtube tabs on the work laptop": the words that name another device are taken off
// the request, which is then planned against that device's desk. Only the names of paired
// devices count, so "on the left monitor" stays a placement.

export interface DeviceTarget {
  device: DeviceRow;
  /** The request without the device phrase. */
  text: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function splitDeviceTarget(text: string, devices: readonly DeviceRow[]): DeviceTarget | null {
  const live = devices.filter((d) => d.removed_at === undefined).sort((a, b) => b.name.length - a.name.length);
  for (const device of live) {
    const name = escape(device.name.trim()).replace(/\s+/g, '\\s+');
    const re = new RegExp(`(^|\\s)(?:on|at)\\s+(?:(?:my|the)\\s+)?${name}(?=$|[\\s.,!?;:])`, 'i');
    const m = re.exec(text);
    if (!m) continue;
    const rest = (text.slice(0, m.index) + m[1] + text.slice(m.index + m[0].length)).replace(/\s+([.,!?;:])/g, '$1').replace(/\s{2,}/g, ' ').trim();
    if (rest) return { device, text: rest };
  }
  return null;
}
