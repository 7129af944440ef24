import { describe, expect, it } from 'vitest';
import { BLUR_GRACE_MS, REOPEN_AFTER_BLUR_MS, shouldHideOnBlur, trayToggle } from './blur-guard';

const base = { now: 10_000, shownAt: 5_000, visible: true, devToolsOpen: false, nativeDialogOpen: false, modalOpen: false };

describe('blur guard', () => {
  it('hides a visible window that lost focus', () => {
    expect(shouldHideOnBlur(base)).toBe(true);
  });

  it('ignores a blur right after showing', () => {
    expect(shouldHideOnBlur({ ...base, shownAt: base.now - 10 })).toBe(false);
    expect(shouldHideOnBlur({ ...base, shownAt: base.now - BLUR_GRACE_MS + 1 })).toBe(false);
    expect(shouldHideOnBlur({ ...base, shownAt: base.now - BLUR_GRACE_MS })).toBe(true);
  });

  it('never hides while DevTools or a native dialog of ours is open', () => {
    expect(shouldHideOnBlur({ ...base, devToolsOpen: true })).toBe(false);
    expect(shouldHideOnBlur({ ...base, nativeDialogOpen: true })).toBe(false);
    // A confirmation in the window: switching to another app to check something must not lose it.
    expect(shouldHideOnBlur({ ...base, modalOpen: true })).toBe(false);
  });

  it('does nothing for a window that is already hidden', () => {
    expect(shouldHideOnBlur({ ...base, visible: false })).toBe(false);
  });

  describe('tray toggle', () => {
    it('shows a hidden popover and hides a visible one', () => {
      expect(trayToggle({ now: 1000, visible: false, hiddenByBlurAt: null })).toBe('show');
      expect(trayToggle({ now: 1000, visible: true, hiddenByBlurAt: null })).toBe('hide');
    });

    it('leaves it closed when the click on the icon is what just blurred it', () => {
      expect(trayToggle({ now: 1000, visible: false, hiddenByBlurAt: 1000 - 40 })).toBe('none');
      expect(trayToggle({ now: 1000, visible: false, hiddenByBlurAt: 1000 - REOPEN_AFTER_BLUR_MS })).toBe('show');
    });
  });
});
