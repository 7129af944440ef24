import { describe, expect, it } from 'vitest';
import { parseGetMonitorsReply } from './monitor-source';

/** A GetMonitors reply body (after the 8-byte header) as the X server sends it. */
function reply(monitors: Array<{ name: number; primary: boolean; x: number; y: number; w: number; h: number; outputs: number[] }>): Buffer {
  const size = 24 + monitors.reduce((n, m) => n + 24 + 4 * m.outputs.length, 0);
  const b = Buffer.alloc(size);
  b.writeUInt32LE(monitors.length, 4);
  let off = 24;
  for (const m of monitors) {
    b.writeUInt32LE(m.name, off);
    b.writeUInt8(m.primary ? 1 : 0, off + 4);
    b.writeUInt16LE(m.outputs.length, off + 6);
    b.writeInt16LE(m.x, off + 8);
    b.writeInt16LE(m.y, off + 10);
    b.writeUInt16LE(m.w, off + 12);
    b.writeUInt16LE(m.h, off + 14);
    m.outputs.forEach((o, i) => b.writeUInt32LE(o, off + 24 + 4 * i));
    off += 24 + 4 * m.outputs.length;
  }
  return b;
}

describe('RandR GetMonitors reply', () => {
  it('reads name atoms, primary flags and geometry, skipping each monitor’s output list', () => {
    const body = reply([
      { name: 500, primary: false, x: 0, y: 0, w: 1920, h: 1080, outputs: [0x42, 0x43] },
      { name: 501, primary: true, x: 1920, y: -200, w: 2560, h: 1440, outputs: [0x44] },
    ]);
    expect(parseGetMonitorsReply(body)).toEqual([
      { nameAtom: 500, primary: false, x: 0, y: 0, width: 1920, height: 1080 },
      { nameAtom: 501, primary: true, x: 1920, y: -200, width: 2560, height: 1440 },
    ]);
  });

  it('stops at a truncated reply instead of reading past it', () => {
    const body = reply([{ name: 500, primary: true, x: 0, y: 0, w: 800, h: 600, outputs: [] }]);
    body.writeUInt32LE(3, 4); // claims three monitors, carries one
    expect(parseGetMonitorsReply(body)).toHaveLength(1);
  });
});
