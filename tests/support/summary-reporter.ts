import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the run ends with. */
const SLOWEST = 10;

/**
 * Ends the run with the slowest test files (where a long `npm test` goes), then one plain line,
 * 'Tests: N passed, N failed, N skipped', that CI reads. When LIMS_TEST_SUMMARY names a file, the counts
 * are appended there too, so .ci/run can add up several runs.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failures: string[] = [];
    for (const module of modules) {
      const file = path.relative(process.cwd(), module.moduleId);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') counts.passed++;
        else if (result.state === 'failed') {
          counts.failed++;
          failures.push(`${file} › ${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`);
        } else counts.skipped++;
      }
      // A file that failed to load, or whose beforeAll / afterAll failed, must not count as a pass: its
      // tests are skipped or passed, so the file counts once as a failure of its own.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((t) => t.result().state === 'failed')) {
        counts.failed++;
        failures.push(`${file}: ${firstLine(module.errors()[0]?.message)}`);
      }
    }
    counts.failed += errors.length;
    for (const error of errors) failures.push(`run: ${firstLine((error as { message?: string }).message)}`);
    console.log(slowestFiles(modules));
    const line = `Tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
    // The failures again at the very end, where a log cut to its last lines (CI's) still shows them.
    if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
    console.log(`\n${line}`);
    if (process.env.LIMS_TEST_SUMMARY)
      appendFileSync(process.env.LIMS_TEST_SUMMARY, `${JSON.stringify({ ...counts, failures })}\n`);
  }
}

const firstLine = (message: string | undefined) => (message ?? 'failed').split('\n')[0]!.slice(0, 300);

/**
 * A file's own time: setting up its environment and importing it, then its tests and hooks (a file's
 * beforeAll starting a server and a browser counts here). Files running beside each other overlap, so
 * these add up to more than the run's wall time.
 */
export function fileSeconds(module: TestModule): number {
  const d = module.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration) / 1000;
}

/** The slowest test files, slowest first, one a line: seconds, project, path. */
export function slowestFiles(modules: ReadonlyArray<TestModule>, count = SLOWEST): string {
  const timed = modules
    .map((module) => ({
      seconds: fileSeconds(module),
      project: module.project.name,
      file: path.relative(process.cwd(), module.moduleId),
    }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count);
  if (timed.length === 0) return '';
  const width = Math.max(...timed.map((t) => t.project.length));
  const lines = timed.map((t) => `${t.seconds.toFixed(1).padStart(7)} s  ${t.project.padEnd(width)}  ${t.file}`);
  return `\nSlowest ${timed.length} test file${timed.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}
