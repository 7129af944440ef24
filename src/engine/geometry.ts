import type { Rect4 } from './ports';

// Pure rectangle arithmetic on [left, top, right, bottom].

export const width = (r: readonly number[]) => r[2]! - r[0]!;
export const height = (r: readonly number[]) => r[3]! - r[1]!;

export function overlapArea(a: readonly number[], b: readonly number[]): number {
  const w = Math.min(a[2]!, b[2]!) - Math.max(a[0]!, b[0]!);
  const h = Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!);
  return w > 0 && h > 0 ? w * h : 0;
}

/** "2020,100 800x600" — how results show a frame to a person. */
export const formatRect = (r: readonly number[]) => `${r[0]},${r[1]} ${width(r)}x${height(r)}`;

/**
 * Moves a frame from one work area to another keeping its relative position and size,
 * scaled to the target, then clamped so the whole frame is inside the target.
 */
export function transferRect(frame: readonly number[], from: readonly number[], to: readonly number[]): Rect4 {
  const sx = width(to) / width(from);
  const sy = height(to) / height(from);
  const w = Math.min(Math.round(width(frame) * sx), width(to));
  const h = Math.min(Math.round(height(frame) * sy), height(to));
  let l = Math.round(to[0]! + (frame[0]! - from[0]!) * sx);
  let t = Math.round(to[1]! + (frame[1]! - from[1]!) * sy);
  l = Math.min(Math.max(l, to[0]!), to[2]! - w);
  t = Math.min(Math.max(t, to[1]!), to[3]! - h);
  return [l, t, l + w, t + h];
}

/** [x, y, w, h] fractions of a work area → absolute frame. */
export function fromRelative(rel: readonly number[], area: readonly number[]): Rect4 {
  const l = Math.round(area[0]! + rel[0]! * width(area));
  const t = Math.round(area[1]! + rel[1]! * height(area));
  const r = Math.round(area[0]! + (rel[0]! + rel[2]!) * width(area));
  const b = Math.round(area[1]! + (rel[1]! + rel[3]!) * height(area));
  return [l, t, Math.min(r, area[2]!), Math.min(b, area[3]!)];
}

/** Absolute frame → [x, y, w, h] fractions of a work area, clamped into it, 4 decimals. */
export function toRelative(frame: readonly number[], area: readonly number[]): [number, number, number, number] {
  const clamp = (v: number) => Math.min(1, Math.max(0, Math.round(v * 10_000) / 10_000));
  const x = clamp((frame[0]! - area[0]!) / width(area));
  const y = clamp((frame[1]! - area[1]!) / height(area));
  const w = Math.min(clamp(width(frame) / width(area)), 1 - x);
  const h = Math.min(clamp(height(frame) / height(area)), 1 - y);
  return [x, y, Math.round(w * 10_000) / 10_000, Math.round(h * 10_000) / 10_000];
}
