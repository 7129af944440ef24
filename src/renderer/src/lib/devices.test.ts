import { describe, expect, it } from 'vitest';
import type { DeviceChoice } from '../../../protocol/ipc';
import { crossDevice, liveRowDevice, pickerOptions, resultBadge, submitDevice } from './devices';

const here: DeviceChoice = { id: 'dev-here', name: 'work laptop', platform: 'linux', online: true, this_device: true };
const home: DeviceChoice = { id: 'dev-home', name: 'home desktop', platform: 'darwin', online: true, this_device: false };
const old: DeviceChoice = { id: 'dev-old', name: 'attic pc', platform: 'win32', online: false, this_device: false };

describe('the launcher across devices', () => {
  it('shows nothing of it with one computer or without sync', () => {
    expect(crossDevice([])).toBe(false);
    expect(crossDevice([here])).toBe(false);
    expect(liveRowDevice([here])).toBeNull();
    expect(crossDevice([here, home])).toBe(true);
  });

  it('lists this computer first, then the others by name, an offline one marked', () => {
    expect(pickerOptions([home, old, here])).toEqual([
      { value: 'dev-here', label: 'work laptop (this computer)' },
      { value: 'dev-old', label: 'attic pc — offline' },
      { value: 'dev-home', label: 'home desktop' },
    ]);
  });

  it('sends a device only for another computer that is still listed', () => {
    const list = [here, home];
    expect(submitDevice(list, null)).toBeUndefined();
    expect(submitDevice(list, 'dev-here')).toBeUndefined();
    expect(submitDevice(list, 'dev-home')).toBe('dev-home');
    // Removed since it was picked: the words stay here rather than go nowhere.
    expect(submitDevice(list, 'dev-old')).toBeUndefined();
  });

  it('badges a result from another computer, and live rows with this computer\'s name', () => {
    expect(resultBadge({ id: 'dev-home', name: 'home desktop' })).toBe('On home desktop');
    expect(resultBadge(undefined)).toBeNull();
    expect(liveRowDevice([here, home])).toBe('work laptop');
  });
});
