import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../protocol/context';
import { compactContext } from './planning/compact-context';
import { checkAnswer } from './plan-text';

const desk = (title: string): ContextSnapshot => ({
  taken_at: '2026-01-01T00:00:00.000Z',
  monitors: [],
  running_apps: [],
  installed_apps: [],
  tabs: [{ index: 1, title, url: `https://${title.toLowerCase()}.test/`, domain: `${title.toLowerCase()}.test`, content_summary: null, is_active: true, window_index: 1, local_index: 1, target_id: `T-${title}` }],
  presets: [],
  sources: { windows: { ok: true, message: '' }, chrome: { ok: true, message: '' }, presets: { ok: true, message: '' } },
});

const withDevices: ContextSnapshot = {
  ...desk('Here'),
  devices: { this_device: 'work laptop', others: [{ id: 'device-home-0001', name: 'home desktop', online: false, last_seen: '2026-01-01T00:00:00.000Z', snapshot: desk('Figma') }] },
};
const closeFirst = (device?: string | null) => ({ commands: [{ type: 'close_tab', tab_indices: [1] }], needs_clarification: false, clarification_reason: null, ...(device !== undefined ? { device } : {}) });

describe('a plan naming a device', () => {
  it('is resolved against that device\'s published desk (its tab ids), the name made exact', () => {
    const r = checkAnswer(closeFirst('Home Desktop'), withDevices);
    expect(r.errors).toEqual([]);
    expect(r.envelope?.device).toBe('home desktop');
    expect(JSON.stringify(r.resolved)).toContain('T-Figma');
  });

  it('naming this computer, null or nothing is this desk', () => {
    for (const d of ['work laptop', null, undefined]) {
      const r = checkAnswer(closeFirst(d), withDevices);
      expect(r.envelope?.device).toBeUndefined();
      expect(JSON.stringify(r.resolved)).toContain('T-Here');
    }
  });

  it('naming a device nobody has is an error naming the field and the devices; without devices in the context too', () => {
    expect(checkAnswer(closeFirst('kitchen tablet'), withDevices).errors).toEqual(['device: no device called "kitchen tablet" (the devices are "work laptop" (this computer), "home desktop")']);
    expect(checkAnswer(closeFirst('home desktop'), desk('Here')).errors[0]).toMatch(/^device: "home desktop" is not known here/);
    expect(checkAnswer(closeFirst(''), withDevices).errors[0]).toMatch(/^device: must not be empty/);
  });

  it('the context shows each other device\'s desk under its name, after this one', () => {
    const text = compactContext(withDevices);
    expect(text.indexOf('"Here"')).toBeLessThan(text.indexOf('THIS COMPUTER is "work laptop"'));
    expect(text).toContain('=== device "home desktop" (offline, last seen 2026-01-01T00:00:00.000Z) ===');
    expect(text.slice(text.indexOf('=== device'))).toContain('"Figma"');
    expect(compactContext(desk('Here'))).not.toContain('THIS COMPUTER');
  });
});
