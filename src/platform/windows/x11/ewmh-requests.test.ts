import { describe, expect, it } from 'vitest';
import { moveResizeData } from './ewmh-requests';
import { parseExtents } from './frame-geometry';

describe('_NET_MOVERESIZE_WINDOW data', () => {
  it('sends the frame top-left with NorthWest gravity and the client size', () => {
    const [flags, x, y, w, h] = moveResizeData([2020, 100, 2820, 700], parseExtents([1, 1, 20, 5]), 0);
    expect(flags! & 0xff).toBe(1); // NorthWest: x,y is the outer frame's corner
    expect((flags! >> 8) & 0xf).toBe(0xf); // x, y, width and height all present
    expect(flags! >> 12).toBe(2); // source: pager/tool
    expect([x, y, w, h]).toEqual([2020, 100, 798, 575]);
  });

  it('passes the frame unchanged for a window that draws its own frame', () => {
    expect(moveResizeData([0, 0, 1280, 720], parseExtents([]), 0).slice(1)).toEqual([0, 0, 1280, 720]);
  });
});
