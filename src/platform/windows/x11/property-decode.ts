// Decoding raw property bytes. Pure, so the byte-level rules are unit-tested.
import type { XProperty } from 'x11';

/** 32-bit items of a property (CARDINAL, WINDOW, ATOM lists); [] when absent or not 32-bit. */
export function cardinals(prop: XProperty | null): number[] {
  if (!prop || prop.type === 0 || prop.format !== 32) return [];
  const out: number[] = [];
  for (let off = 0; off + 4 <= prop.data.length; off += 4) out.push(prop.data.readUInt32LE(off));
  return out;
}

/**
 * Text of a property: UTF-8 for UTF8_STRING, Latin-1 for STRING (ICCCM) and, as the best
 * cheap approximation, for COMPOUND_TEXT. null when the property is absent.
 */
export function text(prop: XProperty | null, utf8StringAtom: number): string | null {
  if (!prop || prop.type === 0 || prop.format !== 8) return null;
  const bytes = trimTrailingNul(prop.data);
  return prop.type === utf8StringAtom ? bytes.toString('utf8') : bytes.toString('latin1');
}

/** WM_CLASS: two NUL-terminated Latin-1 strings, instance then class. */
export function wmClass(prop: XProperty | null): { instance: string; klass: string } {
  if (!prop || prop.type === 0 || prop.format !== 8) return { instance: '', klass: '' };
  const [instance = '', klass = ''] = prop.data.toString('latin1').split('\0');
  return { instance, klass };
}

function trimTrailingNul(buf: Buffer): Buffer {
  let end = buf.length;
  while (end > 0 && buf[end - 1] === 0) end--;
  return buf.subarray(0, end);
}
