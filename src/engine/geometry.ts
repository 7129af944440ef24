import type { Layout } from '../protocol/window-layouts';
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

/** How much larger/smaller makes a window: this share of the work area's width and height. */
export const RESIZE_STEP = 0.1;
/** almost_maximize: this share of the work area, centred. */
export const ALMOST = 0.9;

/**
 * The frame of a named layout in a work area [l, t, r, b]. Splits round down so neighbours tile
 * exactly (a left and a right half share their edge). Thirds are columns on a landscape area and
 * rows on a portrait one; sixths are always 3 columns × 2 rows. center, larger and smaller start
 * from the window's `current` frame: its size centred; or 10% of the area more (less) around its
 * centre, kept inside the area and, shrinking, at least a quarter of it.
 */
export function layoutFrame(layout: Layout, area: readonly number[], current: readonly number[]): Rect4 {
  const [l, t, r, b] = area as Rect4;
  const w = width(area);
  const h = height(area);
  const x = (f: number) => l + Math.floor(w * f);
  const y = (f: number) => t + Math.floor(h * f);
  const portrait = h > w;
  // A third along the long side: [from, to] in thirds.
  const thirds = (from: number, to: number): Rect4 =>
    portrait ? [l, from === 0 ? t : y(from / 3), r, to === 3 ? b : y(to / 3)] : [from === 0 ? l : x(from / 3), t, to === 3 ? r : x(to / 3), b];
  const col = (i: number, n: number): [number, number] => [i === 0 ? l : x(i / n), i === n - 1 ? r : x((i + 1) / n)];
  const row = (i: number, n: number): [number, number] => [i === 0 ? t : y(i / n), i === n - 1 ? b : y((i + 1) / n)];
  const cell = (c: number, cols: number, rw: number, rows: number): Rect4 => {
    const [cl, cr] = col(c, cols);
    const [rt, rb] = row(rw, rows);
    return [cl, rt, cr, rb];
  };
  switch (layout) {
    case 'left_half':
      return cell(0, 2, 0, 1);
    case 'right_half':
      return cell(1, 2, 0, 1);
    case 'top_half':
      return cell(0, 1, 0, 2);
    case 'bottom_half':
      return cell(0, 1, 1, 2);
    case 'top_left':
      return cell(0, 2, 0, 2);
    case 'top_right':
      return cell(1, 2, 0, 2);
    case 'bottom_left':
      return cell(0, 2, 1, 2);
    case 'bottom_right':
      return cell(1, 2, 1, 2);
    case 'first_third':
      return thirds(0, 1);
    case 'center_third':
      return thirds(1, 2);
    case 'last_third':
      return thirds(2, 3);
    case 'first_two_thirds':
      return thirds(0, 2);
    case 'last_two_thirds':
      return thirds(1, 3);
    case 'top_left_sixth':
      return cell(0, 3, 0, 2);
    case 'top_center_sixth':
      return cell(1, 3, 0, 2);
    case 'top_right_sixth':
      return cell(2, 3, 0, 2);
    case 'bottom_left_sixth':
      return cell(0, 3, 1, 2);
    case 'bottom_center_sixth':
      return cell(1, 3, 1, 2);
    case 'bottom_right_sixth':
      return cell(2, 3, 1, 2);
    case 'maximize':
      return [l, t, r, b];
    case 'almost_maximize':
      return centredIn(area, Math.round(w * ALMOST), Math.round(h * ALMOST));
    case 'center':
      return centredIn(area, width(current), height(current));
    case 'larger':
    case 'smaller': {
      const sign = layout === 'larger' ? 1 : -1;
      const nw = Math.max(Math.min(width(current) + sign * Math.round(w * RESIZE_STEP), w), Math.min(width(current), Math.floor(w / 4)));
      const nh = Math.max(Math.min(height(current) + sign * Math.round(h * RESIZE_STEP), h), Math.min(height(current), Math.floor(h / 4)));
      const cx = (current[0]! + current[2]!) / 2;
      const cy = (current[1]! + current[3]!) / 2;
      const nl = Math.min(Math.max(Math.round(cx - nw / 2), l), r - nw);
      const nt = Math.min(Math.max(Math.round(cy - nh / 2), t), b - nh);
      return [nl, nt, nl + nw, nt + nh];
    }
  }
}

/** A W×H frame centred in the area (clamped to it). */
export function centredIn(area: readonly number[], w: number, h: number): Rect4 {
  const cw = Math.min(w, width(area));
  const ch = Math.min(h, height(area));
  const l = area[0]! + Math.floor((width(area) - cw) / 2);
  const t = area[1]! + Math.floor((height(area) - ch) / 2);
  return [l, t, l + cw, t + ch];
}

/** n equal columns across the area, left to right (the last takes what rounding leaves). */
export function columns(area: readonly number[], n: number): Rect4[] {
  const w = width(area);
  return Array.from({ length: n }, (_, i) => {
    const left = area[0]! + Math.floor((w * i) / n);
    const right = i === n - 1 ? area[2]! : area[0]! + Math.floor((w * (i + 1)) / n);
    return [left, area[1]!, right, area[3]!] as Rect4;
  });
}
