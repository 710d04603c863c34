import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, 'Tests: N passed, N failed, N skipped', that CI reads. When
 * LIMS_TEST_SUMMARY names a file, the counts are appended there too, so .ci/run can add up several runs.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      // A file that failed to load has no tests but must not count as a pass.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++;
    }
    counts.failed += errors.length;
    const line = `Tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
    console.log(`\n${line}`);
    if (process.env.LIMS_TEST_SUMMARY) appendFileSync(process.env.LIMS_TEST_SUMMARY, `${JSON.stringify(counts)}\n`);
  }
}
