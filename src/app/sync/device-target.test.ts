import { describe, expect, it } from 'vitest';
import type { DeviceRow } from '../../protocol/sync';
import { splitDeviceTarget } from './device-target';

const dev = (name: string, removed?: number): DeviceRow => ({ v: 1, id: `id-${name.replace(/\W/g, '')}-00`, name, platform: 'linux', version: '1', last_seen: 0, ...(removed ? { removed_at: removed } : {}) });
const devices = [dev('work laptop'), dev('Home Desktop'), dev('old laptop', 5)];

describe('splitDeviceTarget', () => {
  it('takes "on <device>" off the words, with or without my/the, in any case', () => {
    expect(splitDeviceTarget('close my youtube tabs on my work laptop', devices)).toMatchObject({ device: { name: 'work laptop' }, text: 'close my youtube tabs' });
    expect(splitDeviceTarget('close my youtube tabs on the WORK LAPTOP.', devices)).toMatchObject({ text: 'close my youtube tabs.' });
    expect(splitDeviceTarget('on home desktop switch to reddit', devices)).toMatchObject({ device: { name: 'Home Desktop' }, text: 'switch to reddit' });
  });

  it('leaves words that name no paired device (a monitor, a removed device) alone', () => {
    expect(splitDeviceTarget('put xterm on the left monitor', devices)).toBeNull();
    expect(splitDeviceTarget('close reddit on the old laptop', devices)).toBeNull();
    expect(splitDeviceTarget('close reddit on the work laptops', devices)).toBeNull();
    expect(splitDeviceTarget('on the work laptop', devices)).toBeNull();
  });
});
