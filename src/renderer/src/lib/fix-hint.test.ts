import { describe, expect, it } from 'vitest';
import { fixFor } from './fix-hint';

describe('fixFor', () => {
  it('offers to launch Chrome for the chrome_unavailable code', () => {
    expect(fixFor('chrome_unavailable')).toEqual({ kind: 'launch-chrome' });
  });

  it('says to try again when the tab or window closed in the meantime', () => {
    expect(fixFor('tab_gone')).toEqual({ kind: 'text', text: 'It closed in the meantime. Try again.' });
    expect(fixFor('window_gone')).toEqual({ kind: 'text', text: 'It closed in the meantime. Try again.' });
  });

  it('points at the status line when window control is missing, and has nothing for other failures', () => {
    expect(fixFor('windows_unavailable')?.kind).toBe('text');
    expect(fixFor('failed')).toBeNull();
    // Words are never read for a type: a message that mentions Chrome but has no code gets nothing.
    expect(fixFor(undefined)).toBeNull();
  });
});
