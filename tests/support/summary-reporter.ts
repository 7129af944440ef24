import type { Reporter, TestModule } from 'vitest/node';

// Ends every run with one plain line, `N passed, N failed, N skipped`, which CI reads.
// Failed modules (a suite that could not even load, a failing hook) count as failures.
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const mod of modules) {
      let moduleFailures = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') moduleFailures++;
        else skipped++;
      }
      // A module whose hooks or import failed may report no failed test at all.
      if (moduleFailures === 0 && mod.state() === 'failed') moduleFailures = 1;
      failed += moduleFailures;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
