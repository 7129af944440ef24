import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Unit tests sit beside their sources, renderer logic too (*.test.tsx when it needs JSX);
    // tests/ holds the suites that need a real desktop, real processes or real servers.
    include: ['src/**/*.test.{ts,tsx}', 'tests/**/*.test.ts', 'eval/**/*.test.ts'],
    // The CLI runs compiled from out/cli: build it once before any test spawns it.
    globalSetup: ['./tests/support/build-cli.global.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // Real-desktop suites start Xvfb, a window manager and Chromium; two at a time suits two cores.
    maxWorkers: 2,
    // Every wait inside a test is on a condition (tests/support/wait-for.ts), so these limits only
    // catch hangs. They are generous because the suite must pass on a busy machine: with a load of
    // 20 on two cores, one CLI process takes seconds to start, and a desktop with Chromium
    // takes most of a minute.
    // A failure shows the whole message (a CLI's stderr is the diagnosis), not its first 40 characters.
    chaiConfig: { truncateThreshold: 2000 },
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
