import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { LabClock } from '../kernel/clock.js';
import type { Database, Queryable } from '../kernel/db/database.js';
import { CLAIM_SECONDS } from './claim.js';
import { progressOf, runDemoMonth, type MonthResult, type MonthRun } from './month.js';
import type { MonthSize } from './plan.js';

/**
 * The demo month `npm start` offers: on a fresh lab (no specimen has a history yet) or one whose month
 * was cut short, run behind the listening server, its progress in the log, the app usable at once.
 * A lab with specimens of its own is never filled with made-up ones.
 */
export interface Offer {
  app: FastifyInstance;
  clock: LabClock;
  db: Queryable;
  password: string;
  size: MonthSize;
  log: (line: string) => void;
  /** Resolves when the generator may make its next call (PeopleFirst.turn): people are answered first. */
  turn?: () => Promise<void>;
}

export interface Running {
  /** Settles when the month is done, stopped or failed (failures are logged, never thrown). */
  done: Promise<MonthResult | undefined>;
  /** Stops after the step in progress; the next start goes on from the day it was in. */
  stop(): Promise<void>;
}

/**
 * Whether a month is to be made: on a fresh lab, or to finish one cut short. Asked before listening.
 * One process at a time opens an embedded database, so a claim found in one at the start was left by a
 * process that died holding it: it is given up here, rather than waited out.
 */
export async function monthToMake(db: Database): Promise<boolean> {
  if (db.kind === 'pglite') await db.query('update demo_month set runner = null, runner_until = null');
  const progress = await progressOf(db);
  if (progress) return !progress.finished;
  const lived = await db.query(
    `select 1 from record_event where resource = 'specimen' and kind = 'transition' limit 1`,
  );
  return lived.length === 0;
}

/**
 * The month made by this process, or by another one sharing the database (demo/claim.ts): then this one
 * looks again once a claim's span has passed, and goes on with the month if that process stopped.
 */
async function madeHereOrElsewhere(offer: Offer, run: MonthRun): Promise<MonthResult> {
  for (let told = false; ; told = true) {
    const result = await runDemoMonth(run);
    if (!result.elsewhere) return result;
    if (!told)
      offer.log(
        `Demo month: another server process is making it; this one goes on with it if that one stops (within ${CLAIM_SECONDS} s)`,
      );
    await sleep(CLAIM_SECONDS * 1000, undefined, { signal: run.signal });
  }
}

/** Starts the month the caller found to be made (monthToMake). */
export function offerDemoMonth(offer: Offer): Running {
  const controller = new AbortController();
  const { days, perDay } = offer.size;
  offer.log(
    `Demo month: ${days} days × ${perDay} specimens being made in the background (LIMS_DEMO_MONTH=0 turns it off)`,
  );
  let shown = -1;
  const started = Date.now();
  const done = madeHereOrElsewhere(offer, {
    ...offer,
    signal: controller.signal,
    onProgress(count, total, day) {
      const percent = Math.floor((count / total) * 20) * 5;
      if (percent === shown) return;
      shown = percent;
      const rate = count / Math.max(1, (Date.now() - started) / 1000);
      offer.log(`Demo month: ${percent}% (${count}/${total} specimens, day ${day} of ${days}, ${rate.toFixed(1)}/s)`);
    },
  }).then(
    (result) => {
      if (result.ran)
        offer.log(
          `Demo month done: ${result.specimens} specimens (${result.rejected} rejected), ${result.results} results` +
            (result.refused > 0 ? `, ${result.refused} left waiting for approval` : ''),
        );
      return result;
    },
    (error: unknown) => {
      if (controller.signal.aborted) offer.log('Demo month paused: it goes on at the next start');
      else offer.log(`Demo month stopped: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    },
  );
  return {
    done,
    async stop() {
      controller.abort();
      await done;
    },
  };
}
