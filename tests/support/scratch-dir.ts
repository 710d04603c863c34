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
export function scratchInMemory(): void {
  if (process.env.LIMS_TEST_SCRATCH || roomIn(MEMORY) < ROOM) return;
  const dir = mkdtempSync(path.join(MEMORY, 'lims-test-run-'));
  process.env.LIMS_TEST_SCRATCH = dir;
  process.env.TMPDIR = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}
