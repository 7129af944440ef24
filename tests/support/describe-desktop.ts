import { describe, it } from 'vitest';
import { desktopUnavailableReason } from './desktop';

// Kept apart from desktop.ts so that plain Node scripts (the benchmarks) can start a
// desktop without importing vitest.

/**
 * Use instead of `describe` for real-desktop suites. When the desktop is unavailable the suite is
 * skipped with a console warning — unless DESKPILOT_REQUIRE_DESKTOP=1, where it fails instead, so CI
 * cannot go green by silently skipping.
 */
export function describeDesktop(name: string, fn: () => void): void {
  const reason = desktopUnavailableReason();
  if (reason === null) {
    describe(name, fn);
  } else if (process.env.DESKPILOT_REQUIRE_DESKTOP === '1') {
    describe(name, () => {
      it('needs the real test desktop (DESKPILOT_REQUIRE_DESKTOP=1)', () => {
        throw new Error(reason);
      });
    });
  } else {
    console.warn(`[desktop] skipping "${name}": ${reason}`);
    describe.skip(name, fn);
  }
}
