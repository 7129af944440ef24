import { describe, it } from 'vitest';

/**
 * `describe` for suites that need a real session other than the X11 test desktop (a Wayland
 * compositor): runs when `unavailable` is null; otherwise skips with a console warning naming
 * the reason — unless DESKPILOT_REQUIRE_DESKTOP=1, where a failing test states it instead, so CI
 * cannot go green by silently skipping.
 */
export function describeSession(name: string, unavailable: string | null, needs: string, fn: () => void): void {
  if (unavailable === null) {
    describe(name, fn);
  } else if (process.env.DESKPILOT_REQUIRE_DESKTOP === '1') {
    describe(name, () => {
      it(`${needs} (DESKPILOT_REQUIRE_DESKTOP=1)`, () => {
        throw new Error(unavailable);
      });
    });
  } else {
    console.warn(`[session] skipping "${name}": ${unavailable}`);
    describe.skip(name, fn);
  }
}
