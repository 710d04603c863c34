import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import path from 'node:path';

/** Where a run's scratch may go in memory, and the room it must find there (a run writes ~2 GB at most). */
const MEMORY = '/dev/shm';
const ROOM = 8 * 1024 ** 3;

function roomIn(dir: string): number {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return 0;
  }
}

/**
 * Every file a test run writes to the temporary directory (each server's database copied from the run's
 * template, Chromium's profiles, copied schema folders) goes to one directory of the run's own in memory,
 * where the machine has the room: copying a seeded 46 MB database to disk took 0.8–1.6 s of system time,
 * about a hundred times a run on 2 cores; in memory it takes 0.07 s. TMPDIR is set before any worker or
 * server starts, so all of them inherit it; the directory goes when the run ends, whatever a test left.
 */
function scratchInMemory(): void {
  if (process.env.LIMS_TEST_SCRATCH || roomIn(MEMORY) < ROOM) return;
  const dir = mkdtempSync(path.join(MEMORY, 'lims-test-run-'));
  process.env.LIMS_TEST_SCRATCH = dir;
  process.env.TMPDIR = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}
scratchInMemory();

/**
 * The order files start in. Vitest runs its projects one after another (api, e2e, unit by name), so
 * the longest files, the e2e walks of every route, would start last and leave one worker alone at the
 * end. Here e2e files start first, the known walks of every screen before them, then api and unit
 * files fill the workers as the walks end. Within that, vitest's own order (longest last time first).
 */
const FIRST = ['e2e', 'api', 'unit'];
const WALKS = [
  'every-route.test.ts',
  'every-route-2.test.ts',
  'every-route-3.test.ts',
  'every-route-editor.test.ts',
  'demo-month.test.ts',
];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const walk = (f: TestSpecification) => {
      const at = WALKS.findIndex((w) => f.project.name === 'e2e' && f.moduleId.endsWith(`/${w}`));
      return at === -1 ? WALKS.length : at;
    };
    const rank = (f: TestSpecification) => FIRST.indexOf(f.project.name) * 100 + walk(f);
    // Array sort is stable: vitest's order stays within each rank.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * `npm test` runs every suite: unit and component tests, API tests against a real server process,
 * and end-to-end tests driving the built app in headless Chromium. A module's own unit test may sit
 * beside it in src (the browser app's hooks do).
 */
export default defineConfig({
  test: {
    // Three workers on a 2-core machine: with two, a third of the CPU sat idle (each e2e file waits on its
    // own server and browser by turns; .ci/run used 1.2 cores on average), and `npm test` took 1,649 s;
    // with three the cores are busy (2 % idle) and it took 1,399 s, every file passing.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    // Servers the tests start make no demo month (npm start's default) unless a test asks for one:
    // each test sets up the lab it checks. Spawned servers inherit this.
    env: { LIMS_DEMO_MONTH: '0' },
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // e2e first: vitest runs the projects' global set-ups in this order, and the e2e set-up starts the
    // data template's seeding beside the app's build (tests/support/build-app.ts); api's then finds it made.
    projects: [
      {
        test: {
          name: 'e2e',
          // As api: each file's server and Chromium are its own, so files share the worker process.
          isolate: false,
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: [
            'tests/support/build-app.ts',
            'tests/support/build-server.ts',
            'tests/support/data-template.ts',
          ],
          // A walk through the app takes 2-3× as long beside two other files' servers and browsers as alone
          // (a slower 2-core machine: 13 s alone, 35 s in CI). The timeout ends a hang; it does not time a test.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll waits for a condition the page reaches when it gets the CPU: vitest's 1 s default
          // fails a slow page on a busy machine as if it were wrong. A poll still ends as soon as it holds.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          name: 'api',
          // Each file starts and ends its own servers, spawned or in-process, each on data of its own: a
          // fresh process per file (vitest's default) cost its start and imports, ~8 % of the project's time.
          isolate: false,
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/build-server.ts', 'tests/support/data-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          environmentOptions: { happyDOM: { url: 'http://localhost:3000/' } },
          // Some unit tests run SQL on an in-process PGlite or walk every screen file: seconds on a quiet
          // machine, more beside other work. The timeout is there to end a hang, not to time a test.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
