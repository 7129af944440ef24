import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts', 'eval/**/*.test.ts'],
    // The CLI runs compiled from out/cli: build it once before any test spawns it.
    globalSetup: ['./tests/support/build-cli.global.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // Real-desktop suites start Xvfb, a window manager and Chromium; two at a time suits two cores.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
