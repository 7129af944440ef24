// Test fixture: builds .lnk files, since there is no Windows here to make real ones.

/** A minimal shell link per [MS-SHLLINK]: header, optional IDList, LinkInfo with a local base path. */
export function buildLnk(target: string | null, opts: { unicode?: boolean; idList?: boolean; suffix?: string } = {}): Buffer {
  const header = Buffer.alloc(0x4c);
  header.writeUInt32LE(0x4c, 0);
  let flags = 0;
  const parts: Buffer[] = [header];
  if (opts.idList !== false) {
    flags |= 0x1;
    const idList = Buffer.alloc(2 + 20);
    idList.writeUInt16LE(20, 0); // opaque ItemIDs, skipped by size
    parts.push(idList);
  }
  if (target !== null) {
    flags |= 0x2;
    const unicode = !!opts.unicode;
    const headerSize = unicode ? 0x24 : 0x1c;
    const ansiBase = Buffer.from(`${unicode ? '' : target}\0`, 'latin1');
    const ansiSuffix = Buffer.from(`${unicode ? '' : (opts.suffix ?? '')}\0`, 'latin1');
    const uniBase = unicode ? Buffer.from(`${target}\0`, 'utf16le') : Buffer.alloc(0);
    const uniSuffix = unicode ? Buffer.from(`${opts.suffix ?? ''}\0`, 'utf16le') : Buffer.alloc(0);
    const volumeId = Buffer.alloc(0x10);
    volumeId.writeUInt32LE(0x10, 0);
    const info = Buffer.alloc(headerSize);
    let at = headerSize;
    const place = (b: Buffer) => {
      const offset = at;
      at += b.length;
      return offset;
    };
    const volumeOffset = place(volumeId);
    const baseOffset = place(ansiBase);
    const suffixOffset = place(ansiSuffix);
    const uniBaseOffset = place(uniBase);
    const uniSuffixOffset = place(uniSuffix);
    info.writeUInt32LE(at, 0);
    info.writeUInt32LE(headerSize, 4);
    info.writeUInt32LE(0x1, 8); // VolumeIDAndLocalBasePath
    info.writeUInt32LE(volumeOffset, 0x0c);
    info.writeUInt32LE(baseOffset, 0x10);
    info.writeUInt32LE(0, 0x14);
    info.writeUInt32LE(suffixOffset, 0x18);
    if (unicode) {
      info.writeUInt32LE(uniBaseOffset, 0x1c);
      info.writeUInt32LE(uniSuffixOffset, 0x20);
    }
    parts.push(info, volumeId, ansiBase, ansiSuffix, uniBase, uniSuffix);
  }
  header.writeUInt32LE(flags | 0x80, 0x14);
  return Buffer.concat(parts);
}
