// The target path of a Windows shell link (.lnk), from its LinkInfo structure ([MS-SHLLINK] 2.3).

const HEADER_SIZE = 0x4c;
const HAS_LINK_TARGET_ID_LIST = 0x1;
const HAS_LINK_INFO = 0x2;
const VOLUME_ID_AND_LOCAL_BASE_PATH = 0x1;

function cString(buf: Buffer, start: number, end: number): string {
  const nul = buf.indexOf(0, start);
  // ANSI in the link's code page, unknown here; latin1 is right for ASCII paths and never throws.
  return buf.toString('latin1', start, nul < 0 || nul > end ? end : nul);
}

function utf16String(buf: Buffer, start: number, end: number): string {
  let stop = start;
  while (stop + 1 < end && (buf[stop] !== 0 || buf[stop + 1] !== 0)) stop += 2;
  return buf.toString('utf16le', start, stop);
}

/**
 * The local path a shortcut points at (LocalBasePath + CommonPathSuffix, the Unicode variants when
 * present), e.g. "C:\Program Files\Mozilla Firefox\firefox.exe". null when the link has no local
 * target — MSI "advertised" shortcuts, links to shell folders — or the data is not a shell link.
 */
export function readLnkTarget(buf: Buffer): string | null {
  try {
    if (buf.length < HEADER_SIZE || buf.readUInt32LE(0) !== HEADER_SIZE) return null;
    const flags = buf.readUInt32LE(0x14);
    if (!(flags & HAS_LINK_INFO)) return null;
    let at = HEADER_SIZE;
    if (flags & HAS_LINK_TARGET_ID_LIST) at += 2 + buf.readUInt16LE(at);
    const size = buf.readUInt32LE(at);
    const end = Math.min(buf.length, at + size);
    const headerSize = buf.readUInt32LE(at + 4);
    const infoFlags = buf.readUInt32LE(at + 8);
    if (!(infoFlags & VOLUME_ID_AND_LOCAL_BASE_PATH)) return null;
    if (headerSize >= 0x24) {
      const base = buf.readUInt32LE(at + 0x1c);
      const suffix = buf.readUInt32LE(at + 0x20);
      if (base) return utf16String(buf, at + base, end) + (suffix ? utf16String(buf, at + suffix, end) : '');
    }
    const base = buf.readUInt32LE(at + 0x10);
    const suffix = buf.readUInt32LE(at + 0x18);
    if (!base) return null;
    return cString(buf, at + base, end) + (suffix ? cString(buf, at + suffix, end) : '');
  } catch {
    return null; // RangeError from a truncated file
  }
}
