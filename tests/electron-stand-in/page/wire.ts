import { world } from './dom';

// What crosses between the preload world and the stand-in's main process: JSON strings (a
// DevTools binding carries one string), with byte arrays as base64 — voice audio is one.

export const BYTES = '__standInBytes';

export function toWire(v: unknown): unknown {
  if (v instanceof Uint8Array) {
    let s = '';
    for (let i = 0; i < v.length; i += 0x8000) s += String.fromCharCode(...v.subarray(i, i + 0x8000));
    return { [BYTES]: world.btoa(s) };
  }
  if (Array.isArray(v)) return v.map(toWire);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toWire(x)]));
  return v;
}

export function fromWire(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromWire);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o[BYTES] === 'string' && Object.keys(o).length === 1) {
      const s = world.atob(o[BYTES]);
      const bytes = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
      return bytes;
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, fromWire(x)]));
  }
  return v;
}
