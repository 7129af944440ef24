import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

// Draws DeskPilot's icons (an arrow pointing up-right: "go there") so they are
// reproducible from source: `npx tsx scripts/make-icons.ts`. Tray icons are black on
// transparent (macOS template images are recoloured by the system).

type Rgba = [number, number, number, number];

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function png(size: number, pixel: (x: number, y: number) => Rgba): Buffer {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), y * (size * 4 + 1) + 1 + x * 4);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Coverage of the arrow at unit coordinates (0..1), supersampled for smooth edges.
function arrow(u: number, v: number): boolean {
  // Rotate 45° so the arrow points to the upper right.
  const cx = u - 0.5;
  const cy = v - 0.5;
  const x = (cx + cy) * Math.SQRT1_2; // along the shaft towards bottom-right… flipped below
  const y = (cx - cy) * Math.SQRT1_2; // towards upper-right
  const head = y > 0.05 && y < 0.36 && Math.abs(x) < (0.36 - y) * 0.95;
  const shaft = y > -0.34 && y <= 0.06 && Math.abs(x) < 0.085;
  return head || shaft;
}

function coverage(x: number, y: number, size: number, inset: number): number {
  let hit = 0;
  const n = 4;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const u = (x + (i + 0.5) / n) / size;
      const v = (y + (j + 0.5) / n) / size;
      if (arrow((u - inset) / (1 - 2 * inset), (v - inset) / (1 - 2 * inset))) hit++;
    }
  return hit / (n * n);
}

function appIcon(size: number): Buffer {
  const r = size * 0.22;
  return png(size, (x, y) => {
    const dx = Math.max(Math.abs(x + 0.5 - size / 2) - (size / 2 - r), 0);
    const dy = Math.max(Math.abs(y + 0.5 - size / 2) - (size / 2 - r), 0);
    const inside = Math.min(1, Math.max(0, r - Math.hypot(dx, dy) + 0.5));
    if (inside === 0) return [0, 0, 0, 0];
    const t = y / size;
    const bg: Rgba = [Math.round(40 + 30 * t), Math.round(110 - 40 * t), Math.round(230 - 40 * t), Math.round(255 * inside)];
    const a = coverage(x, y, size, 0.12);
    return [Math.round(bg[0] + (255 - bg[0]) * a), Math.round(bg[1] + (255 - bg[1]) * a), Math.round(bg[2] + (255 - bg[2]) * a), bg[3]];
  });
}

const trayIcon = (size: number) => png(size, (x, y) => [0, 0, 0, Math.round(255 * coverage(x, y, size, 0.02))]);

const dir = path.join(__dirname, '..', 'resources');
writeFileSync(path.join(dir, 'icon.png'), appIcon(512));
writeFileSync(path.join(dir, 'tray.png'), trayIcon(16));
writeFileSync(path.join(dir, 'tray@2x.png'), trayIcon(32));
// Template images on macOS are picked by the "Template" suffix.
writeFileSync(path.join(dir, 'trayTemplate.png'), trayIcon(16));
writeFileSync(path.join(dir, 'trayTemplate@2x.png'), trayIcon(32));
