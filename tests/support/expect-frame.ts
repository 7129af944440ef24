import { expect } from 'vitest';
import type { Frame } from './x-observe';

/** xterm sizes in 6x13 character cells: it may land up to one cell smaller than asked. */
export function expectFrameNear(got: Frame, want: readonly number[]) {
  expect(got[0]).toBe(want[0]);
  expect(got[1]).toBe(want[1]);
  expect(want[2]! - got[2]).toBeGreaterThanOrEqual(0);
  expect(want[2]! - got[2]).toBeLessThan(6);
  expect(want[3]! - got[3]).toBeGreaterThanOrEqual(0);
  expect(want[3]! - got[3]).toBeLessThan(13);
}
