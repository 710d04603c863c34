import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { readConfig } from './kernel/config.js';
import { LabClock } from './kernel/clock.js';
import { PushHub } from './kernel/push/hub.js';
import { progressOf, runDemoMonth } from './demo/month.js';
import { DEFAULT_SEED } from './demo/size.js';
import { callTimes } from './demo/api.js';
import { prepare } from './startup.js';

/**
 * `npm run demo-month -- --days N --per-day M [--seed S] [--bulk]`: a stretch of the lab's life made
 * through the API into the configured database (LIMS_DATA_DIR's PGlite, or DATABASE_URL), with a
 * progress bar; `--bulk` works tasks and signs results in larger batches (demo/lab.ts).
 * The embedded database serves one process at a time: stop the server first. A month cut short goes
 * on where it stopped when run again (with the size it was started with).
 */
const USAGE = 'usage: npm run demo-month -- --days N --per-day M [--seed S] [--bulk] [--timing]';

function positive(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < 1 || n > 100_000)
    throw new Error(`--${name} must be a whole number from 1 to 100000\n${USAGE}`);
  return n;
}

/** One line redrawn in place: bar, share, count, speed and time left. */
function bar(done: number, total: number, day: number, started: number): string {
  const share = done / total;
  const width = 30;
  const full = Math.round(share * width);
  const rate = done / Math.max(0.001, (Date.now() - started) / 1000);
  const left = rate > 0 ? Math.round((total - done) / rate) : 0;
  return `[${'█'.repeat(full)}${'░'.repeat(width - full)}] ${(share * 100).toFixed(0).padStart(3)}% ${done}/${total} specimens, day ${day}, ${rate.toFixed(1)}/s, ~${Math.floor(left / 60)}m${String(left % 60).padStart(2, '0')}s left`;
}

/** Where the time went: each kind of call, the costliest first (`--timing`). */
function printTimes() {
  const rows = [...callTimes].sort((a, b) => b[1].ms - a[1].ms);
  for (const [kind, { calls, ms }] of rows.slice(0, 25))
    console.log(
      `${(ms / 1000).toFixed(1).padStart(8)} s ${String(calls).padStart(6)} × ${(ms / calls).toFixed(1).padStart(7)} ms  ${kind}`,
    );
}

async function main() {
  const { values } = parseArgs({
    options: {
      days: { type: 'string' },
      'per-day': { type: 'string' },
      seed: { type: 'string' },
      timing: { type: 'boolean' },
      bulk: { type: 'boolean' },
    },
  });
  const size = {
    days: positive(values.days, 'days'),
    perDay: positive(values['per-day'], 'per-day'),
    seed: values.seed === undefined ? DEFAULT_SEED : Number.parseInt(values.seed, 10),
  };
  if (!Number.isSafeInteger(size.seed)) throw new Error(`--seed must be a whole number\n${USAGE}`);
  const config = { ...readConfig(), logLevel: 'warn' };
  const { db, screens } = await prepare(config);
  const clock = new LabClock(() => new Date());
  const push = await PushHub.open(db, { databaseUrl: config.databaseUrl });
  const app = await buildApp({ db, config, now: clock.wallNow, clock, screens, push });
  try {
    const before = await progressOf(db);
    if (before && (before.days !== size.days || before.perDay !== size.perDay || before.seed !== size.seed))
      console.log(
        `This database has a demo month of ${before.days} × ${before.perDay} (seed ${before.seed}) ${before.finished ? 'made already' : 'under way: going on with it'}`,
      );
    const started = Date.now();
    const tty = process.stdout.isTTY;
    let last = 0;
    const result = await runDemoMonth({
      app,
      clock,
      db,
      password: config.demoPassword,
      size,
      bulk: values.bulk,
      onProgress(done, total, day) {
        if (tty) process.stdout.write(`\r${bar(done, total, day, started)}`);
        else if (done === total || Date.now() - last > 5000) {
          last = Date.now();
          console.log(bar(done, total, day, started));
        }
      },
    });
    if (tty) process.stdout.write('\n');
    const seconds = (Date.now() - started) / 1000;
    if (result.elsewhere) console.log('Nothing done: a server process is making the demo month now.');
    else if (!result.ran) console.log('Nothing to do: the demo month is there already.');
    else
      console.log(
        `${result.specimens} specimens (${result.rejected} rejected), ${result.results} results in ${seconds.toFixed(0)} s` +
          ` (${(result.specimens / seconds).toFixed(2)} specimens/s), ${result.handovers} courier handovers, ${result.tasks} tasks` +
          (result.refused > 0 ? `; ${result.refused} results left waiting for approval` : ''),
      );
    for (const reason of result.reasons.slice(0, 5)) console.log(`  refused: ${reason}`);
    if (values.timing) printTimes();
  } finally {
    await app.close();
    await push.close();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
