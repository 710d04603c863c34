import type { FastifyInstance } from 'fastify';
import type { LabClock } from '../kernel/clock.js';
import type { Queryable } from '../kernel/db/database.js';
import { progressOf, runDemoMonth, type MonthResult } from './month.js';
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

/** Whether a month is to be made: on a fresh lab, or to finish one cut short. Asked before listening. */
export async function monthToMake(db: Queryable): Promise<boolean> {
  const progress = await progressOf(db);
  if (progress) return !progress.finished;
  const lived = await db.query(
    `select 1 from record_event where resource = 'specimen' and kind = 'transition' limit 1`,
  );
  return lived.length === 0;
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
  const done = runDemoMonth({
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
