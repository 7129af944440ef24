import { describe, expect, it } from 'vitest';
import { acceptsFocus } from './focus-model';

const TAKE_FOCUS = 500;
const DELETE_WINDOW = 501;

describe('focus model', () => {
  it('accepts focus without WM_HINTS, without the input flag, or with input=True', () => {
    expect(acceptsFocus([], [], TAKE_FOCUS)).toBe(true);
    expect(acceptsFocus([2, 0], [], TAKE_FOCUS)).toBe(true); // input field present but not flagged
    expect(acceptsFocus([1, 1], [DELETE_WINDOW], TAKE_FOCUS)).toBe(true); // xterm
  });

  it('refuses focus with input=False and no WM_TAKE_FOCUS (xclock)', () => {
    expect(acceptsFocus([1 | 2 | 4, 0], [DELETE_WINDOW], TAKE_FOCUS)).toBe(false);
  });

  it('accepts focus with input=False when it takes focus itself (globally active)', () => {
    expect(acceptsFocus([1, 0], [DELETE_WINDOW, TAKE_FOCUS], TAKE_FOCUS)).toBe(true);
  });
});
