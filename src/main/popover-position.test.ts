import { describe, expect, it } from 'vitest';
import { centred, chooseAnchor, EDGE_MARGIN, GAP, popoverPosition, trayEdge, type Rect } from './popover-position';

const SIZE = { width: 380, height: 520 };

describe('popover position', () => {
  describe('macOS: below the menu bar, under the icon', () => {
    // 1440x900 display, 25 px menu bar: the work area starts at y=25.
    const work: Rect = { x: 0, y: 25, width: 1440, height: 875 };

    it('centres the popover under the tray icon', () => {
      const icon = { x: 1000, y: 0, width: 24, height: 24 };
      expect(popoverPosition('darwin', chooseAnchor(icon, null), work, SIZE)).toEqual({ x: 1012 - 190, y: 25 + GAP });
    });

    it('is clamped at the right edge of the screen for an icon near the corner', () => {
      const icon = { x: 1400, y: 0, width: 24, height: 24 };
      expect(popoverPosition('darwin', chooseAnchor(icon, null), work, SIZE)).toEqual({ x: 1440 - 380 - EDGE_MARGIN, y: 25 + GAP });
    });

    it('is clamped at the left edge of a secondary display left of the main one', () => {
      const left: Rect = { x: -1920, y: 25, width: 1920, height: 1055 };
      const icon = { x: -1915, y: 0, width: 22, height: 24 };
      expect(popoverPosition('darwin', chooseAnchor(icon, null), left, SIZE)).toEqual({ x: -1920 + EDGE_MARGIN, y: 25 + GAP });
    });

    it('stays below the menu bar even when the icon reports a taller rectangle', () => {
      const icon = { x: 700, y: 0, width: 30, height: 37 };
      expect(popoverPosition('darwin', chooseAnchor(icon, null), work, SIZE).y).toBe(37 + GAP);
    });
  });

  describe('Windows: above the taskbar, or beside it', () => {
    // 1920x1080 with a 40 px taskbar at the bottom.
    const work: Rect = { x: 0, y: 0, width: 1920, height: 1040 };

    it('sits above a bottom taskbar, centred on the icon', () => {
      const icon = { x: 1700, y: 1048, width: 24, height: 24 };
      expect(popoverPosition('win32', chooseAnchor(icon, null), work, SIZE)).toEqual({ x: 1712 - 190, y: 1040 - 520 - GAP });
    });

    it('is clamped at the right edge for an icon in the corner', () => {
      const icon = { x: 1890, y: 1048, width: 24, height: 24 };
      expect(popoverPosition('win32', chooseAnchor(icon, null), work, SIZE).x).toBe(1920 - 380 - EDGE_MARGIN);
    });

    it('sits below a taskbar moved to the top', () => {
      const top: Rect = { x: 0, y: 40, width: 1920, height: 1040 };
      const icon = { x: 1700, y: 8, width: 24, height: 24 };
      expect(popoverPosition('win32', chooseAnchor(icon, null), top, SIZE)).toEqual({ x: 1522, y: 40 + GAP });
    });

    it('sits right of a taskbar moved to the left, kept inside the work area', () => {
      const leftBar: Rect = { x: 60, y: 0, width: 1860, height: 1080 };
      const icon = { x: 18, y: 1040, width: 24, height: 24 };
      expect(trayEdge('win32', icon, leftBar)).toBe('left');
      expect(popoverPosition('win32', chooseAnchor(icon, null), leftBar, SIZE)).toEqual({ x: 60 + EDGE_MARGIN, y: 1080 - 520 });
    });

    it('sits left of a taskbar moved to the right, never over it', () => {
      const rightBar: Rect = { x: 0, y: 0, width: 1860, height: 1080 };
      const icon = { x: 1878, y: 1000, width: 24, height: 24 };
      expect(trayEdge('win32', icon, rightBar)).toBe('right');
      expect(popoverPosition('win32', chooseAnchor(icon, null), rightBar, SIZE)).toEqual({ x: 1860 - 380 - EDGE_MARGIN, y: 1080 - 520 });
    });

    it('falls back to the click position when the tray reports empty bounds', () => {
      const anchor = chooseAnchor({ x: 0, y: 0, width: 0, height: 0 }, { x: 1750, y: 1060 });
      expect(anchor).toEqual({ kind: 'cursor', point: { x: 1750, y: 1060 } });
      expect(popoverPosition('win32', anchor, work, SIZE)).toEqual({ x: 1920 - 380 - EDGE_MARGIN, y: 1040 - 520 - GAP });
    });

    it('uses the work area of a second display the taskbar is on', () => {
      const second: Rect = { x: 1920, y: 0, width: 2560, height: 1400 };
      const icon = { x: 4000, y: 1408, width: 24, height: 24 };
      expect(popoverPosition('win32', chooseAnchor(icon, null), second, SIZE)).toEqual({ x: 4012 - 190, y: 1400 - 520 - GAP });
      const corner = { x: 4450, y: 1408, width: 24, height: 24 };
      expect(popoverPosition('win32', chooseAnchor(corner, null), second, SIZE).x).toBe(1920 + 2560 - 380 - EDGE_MARGIN);
    });
  });

  describe('Linux: zero tray bounds', () => {
    it('uses the click position under a top panel', () => {
      const work: Rect = { x: 0, y: 27, width: 1920, height: 1053 };
      const anchor = chooseAnchor({ x: 0, y: 0, width: 0, height: 0 }, { x: 1800, y: 12 });
      expect(popoverPosition('linux', anchor, work, SIZE)).toEqual({ x: 1920 - 380 - EDGE_MARGIN, y: 27 + GAP });
    });

    it('uses the click position above a bottom panel', () => {
      const work: Rect = { x: 0, y: 0, width: 1920, height: 1044 };
      const anchor = chooseAnchor(null, { x: 960, y: 1060 });
      expect(popoverPosition('linux', anchor, work, SIZE)).toEqual({ x: 960 - 190, y: 1044 - 520 - GAP });
    });

    it('decides by halves when the panel reserves no space (click inside the work area)', () => {
      const work: Rect = { x: 0, y: 0, width: 1920, height: 1080 };
      expect(popoverPosition('linux', chooseAnchor(null, { x: 100, y: 10 }), work, SIZE)).toEqual({ x: EDGE_MARGIN, y: 10 + GAP });
      expect(popoverPosition('linux', chooseAnchor(null, { x: 100, y: 1075 }), work, SIZE)).toEqual({ x: EDGE_MARGIN, y: 1075 - 520 - GAP });
    });

    it('goes top-right of the (primary) work area when nothing is known', () => {
      const work: Rect = { x: 0, y: 27, width: 1920, height: 1053 };
      const anchor = chooseAnchor({ x: 0, y: 0, width: 0, height: 0 }, null);
      expect(anchor).toEqual({ kind: 'none' });
      expect(popoverPosition('linux', anchor, work, SIZE)).toEqual({ x: 1920 - 380 - EDGE_MARGIN, y: 27 + GAP });
    });

    it('pins a popover taller than the work area to its top', () => {
      const small: Rect = { x: 0, y: 30, width: 800, height: 400 };
      expect(popoverPosition('linux', chooseAnchor(null, { x: 400, y: 590 }), small, SIZE)).toEqual({ x: 210, y: 30 });
    });
  });

  it('centres the launcher in the work area of the cursor display', () => {
    expect(centred({ x: 1920, y: 0, width: 1920, height: 1040 }, { width: 640, height: 420 })).toEqual({ x: 1920 + 640, y: 310 });
    expect(centred({ x: 0, y: 0, width: 500, height: 300 }, { width: 640, height: 420 })).toEqual({ x: 0, y: 0 });
  });
});
