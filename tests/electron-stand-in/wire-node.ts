import { BYTES } from './page/wire';

// The main-process end of page/wire.ts: byte arrays travel as base64.

export function toWireNode(v: unknown): unknown {
  if (v instanceof Uint8Array) return { [BYTES]: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (Array.isArray(v)) return v.map(toWireNode);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toWireNode(x)]));
  return v;
}

export function fromWireNode(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromWireNode);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o[BYTES] === 'string' && Object.keys(o).length === 1) return new Uint8Array(Buffer.from(o[BYTES], 'base64'));
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, fromWireNode(x)]));
  }
  return v;
}
