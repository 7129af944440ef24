import { describe, expect, it } from 'vitest';
import { acceleratorProblem } from './accelerator';
import { SettingsPatch } from './ipc';

describe('hotkeys are checked before they are saved', () => {
  it.each(['Control+Alt+Space', 'Alt+Space', 'CommandOrControl+Shift+K', 'Ctrl+F12', 'Super+Plus', 'Alt+/', 'Control+num5'])('accepts %s', (a) => {
    expect(acceleratorProblem(a)).toBeNull();
  });

  it.each([
    ['banana', '"banana" is not a key Electron knows'],
    ['Space', 'needs at least one modifier (Control, Alt, Shift, Command…) so it does not swallow normal typing'],
    ['Control+Alt', 'needs a key, e.g. Control+Alt+Space'],
    ['Control+A+B', 'has more than one key (A, B)'],
    ['Control++', 'has an empty part (use "Plus" for the + key)'],
    ['Shift+Shift+A', 'repeats a modifier'],
  ])('refuses %s: %s', (a, why) => {
    expect(acceleratorProblem(a)).toBe(why);
  });

  it('the settings patch names the field, and refuses the same hotkey twice', () => {
    const bad = SettingsPatch.safeParse({ hotkeys: { launcher: 'banana' } });
    expect(bad.success || bad.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['hotkeys.launcher', '"banana" is not a key Electron knows']]);
    const same = SettingsPatch.safeParse({ hotkeys: { launcher: 'Alt+Space', voice: 'alt+space' } });
    expect(same.success || same.error.issues.map((i) => i.path.join('.'))).toEqual(['hotkeys.voice']);
    expect(SettingsPatch.safeParse({ hotkeys: { launcher: 'Control+Alt+Space', voice: 'Control+Alt+Shift+Space' } }).success).toBe(true);
  });
});
