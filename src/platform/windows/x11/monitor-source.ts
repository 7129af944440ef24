// Where monitors come from, best first: RandR 1.5 monitors (names such as DP-1, primary flag,
// and what `xrandr --setmonitor` defines), Xinerama screens (no names), the root window.
// The x11 package has no GetMonitors, so it is sent as a raw request.
import type { Rect4 } from '../../../engine/ports';
import type { XConnection } from './x-connection';

export interface MonitorGeometry {
  id: string;
  name: string;
  bounds: Rect4;
  primary: boolean;
}

const RR_QUERY_VERSION = 0;
const RR_GET_MONITORS = 42;

/** RRQueryVersion: major, minor (CARD32 each); the reply says what the server speaks. */
function queryVersionPacket(majorOpcode: number): Buffer {
  const b = Buffer.alloc(12);
  b.writeUInt8(majorOpcode, 0);
  b.writeUInt8(RR_QUERY_VERSION, 1);
  b.writeUInt16LE(3, 2);
  b.writeUInt32LE(1, 4);
  b.writeUInt32LE(5, 8);
  return b;
}

/** RRGetMonitors: window, get_active (BOOL), 3 pad bytes. */
function getMonitorsPacket(majorOpcode: number, root: number): Buffer {
  const b = Buffer.alloc(12);
  b.writeUInt8(majorOpcode, 0);
  b.writeUInt8(RR_GET_MONITORS, 1);
  b.writeUInt16LE(3, 2);
  b.writeUInt32LE(root >>> 0, 4);
  b.writeUInt8(1, 8); // active monitors only
  return b;
}

interface RawRandrMonitor {
  nameAtom: number;
  primary: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The GetMonitors reply body (after the 8-byte header): timestamp, nMonitors, nOutputs, 12 pad,
 * then per monitor: name atom, primary, automatic, nOutput, x, y, width, height (INT16/CARD16),
 * width/height in mm, nOutput output ids.
 */
export function parseGetMonitorsReply(body: Buffer): RawRandrMonitor[] {
  const count = body.readUInt32LE(4);
  const monitors: RawRandrMonitor[] = [];
  let off = 24;
  for (let i = 0; i < count && off + 24 <= body.length; i++) {
    const outputs = body.readUInt16LE(off + 6);
    monitors.push({
      nameAtom: body.readUInt32LE(off),
      primary: body.readUInt8(off + 4) !== 0,
      x: body.readInt16LE(off + 8),
      y: body.readInt16LE(off + 10),
      width: body.readUInt16LE(off + 12),
      height: body.readUInt16LE(off + 14),
    });
    off += 24 + 4 * outputs;
  }
  return monitors;
}

async function randrMonitors(conn: XConnection): Promise<MonitorGeometry[] | null> {
  const ext = await conn.queryExtension('RANDR');
  if (!ext.present) return null;
  const [major, minor] = await conn.rawRequest(queryVersionPacket(ext.majorOpcode), (body) => [body.readUInt32LE(0), body.readUInt32LE(4)] as const);
  if (major < 1 || (major === 1 && minor < 5)) return null;
  const raw = await conn.rawRequest(getMonitorsPacket(ext.majorOpcode, conn.root), parseGetMonitorsReply);
  const usable = raw.filter((m) => m.width > 0 && m.height > 0);
  if (usable.length === 0) return null;
  const names = await Promise.all(usable.map((m) => conn.atomName(m.nameAtom).catch(() => '')));
  return usable.map((m, i) => {
    const name = names[i] || `Monitor ${i + 1}`;
    return { id: name, name, bounds: [m.x, m.y, m.x + m.width, m.y + m.height], primary: m.primary };
  });
}

async function xineramaMonitors(conn: XConnection): Promise<MonitorGeometry[] | null> {
  const ext = await conn.queryExtension('XINERAMA');
  if (!ext.present) return null;
  const xinerama = await new Promise<import('x11').XineramaExtension>((resolve, reject) =>
    conn.client.require('xinerama', (err, e) => (err ? reject(err) : resolve(e))),
  );
  const screens = await conn.request<import('x11').XineramaScreen[]>((cb) => xinerama.QueryScreens(cb));
  const usable = screens.filter((s) => s.width > 0 && s.height > 0);
  if (usable.length === 0) return null;
  return usable.map((s, i) => ({
    id: `xinerama-${i}`,
    name: `Monitor ${i + 1}`,
    bounds: [s.x, s.y, s.x + s.width, s.y + s.height],
    // Xinerama has no primary flag; by convention its first screen is the primary one.
    primary: i === 0,
  }));
}

export async function readMonitorGeometry(conn: XConnection): Promise<MonitorGeometry[]> {
  // Each source may be missing or broken on an odd server; the next one is always worth a try.
  const fromRandr = await randrMonitors(conn).catch(() => null);
  if (fromRandr) return fromRandr;
  const fromXinerama = await xineramaMonitors(conn).catch(() => null);
  if (fromXinerama) return fromXinerama;
  return [{ id: 'screen', name: 'Screen', bounds: [0, 0, conn.screenWidth, conn.screenHeight], primary: true }];
}
