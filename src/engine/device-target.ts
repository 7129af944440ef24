import type { Envelope } from '../protocol/commands';
import type { ContextSnapshot } from '../protocol/context';

// A planner's answer may name the device its commands are for (the envelope's `device`, one
// of the devices its context listed). Its commands are then checked and resolved against that
// device's published desk, and the batch is stamped with that device's id, so only that
// device's engine will run it — a front end that does not look at `device` cannot run it here.

export type DeviceTarget =
  | { ok: true; envelope: Envelope; snapshot: ContextSnapshot; device: { id: string; name: string } | null }
  | { ok: false; error: string };

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function deviceTarget(envelope: Envelope, snap: ContextSnapshot): DeviceTarget {
  const { device, ...rest } = envelope;
  if (device === undefined || device === null) return { ok: true, envelope: rest, snapshot: snap, device: null };
  const known = snap.devices;
  if (!known) return { ok: false, error: `device: "${device}" is not known here (no other devices are in the context); leave it out for this computer` };
  if (same(device, known.this_device)) return { ok: true, envelope: rest, snapshot: snap, device: null };
  const other = known.others.find((d) => same(d.name, device));
  if (!other) {
    const names = [`"${known.this_device}" (this computer)`, ...known.others.map((d) => `"${d.name}"`)].join(', ');
    return { ok: false, error: `device: no device called "${device}" (the devices are ${names})` };
  }
  return { ok: true, envelope: { ...rest, device: other.name }, snapshot: other.snapshot, device: { id: other.id, name: other.name } };
}
