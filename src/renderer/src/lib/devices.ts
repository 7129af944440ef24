import type { DeviceBadge, DeviceChoice } from '../../../protocol/ipc';

// Across devices, in the launcher: which computer the words go to (the picker), and which
// computer a result or a live row is about (the badges). Shown only when sync is set up and
// there is another device; with one computer nothing of this appears.

/** Another device is there to send words to. */
export const crossDevice = (devices: readonly DeviceChoice[]): boolean => devices.some((d) => !d.this_device);

export const thisDevice = (devices: readonly DeviceChoice[]): DeviceChoice | undefined => devices.find((d) => d.this_device);

export interface PickerOption {
  value: string;
  label: string;
}

/** This computer first, then the others by name; an offline one says so (its row would wait, then expire). */
export function pickerOptions(devices: readonly DeviceChoice[]): PickerOption[] {
  const here = thisDevice(devices);
  const others = devices.filter((d) => !d.this_device).sort((a, b) => a.name.localeCompare(b.name));
  return [
    ...(here ? [{ value: here.id, label: `${here.name} (this computer)` }] : []),
    ...others.map((d) => ({ value: d.id, label: d.online ? d.name : `${d.name} — offline` })),
  ];
}

/** The device id to send with the words: only another device that is still listed; undefined = this computer. */
export function submitDevice(devices: readonly DeviceChoice[], selected: string | null): string | undefined {
  const d = selected === null ? undefined : devices.find((x) => x.id === selected);
  return d && !d.this_device ? d.id : undefined;
}

/** "On home desktop" above a result that ran on another computer. */
export const resultBadge = (device: DeviceBadge | undefined): string | null => (device ? `On ${device.name}` : null);

/**
 * The live rows list this computer's tabs and windows: with another device around, each says
 * so (an action on a row runs here, whichever device the words go to).
 */
export const liveRowDevice = (devices: readonly DeviceChoice[]): string | null => (crossDevice(devices) ? (thisDevice(devices)?.name ?? null) : null);
