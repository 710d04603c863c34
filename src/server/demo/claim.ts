import { randomUUID } from 'node:crypto';
import type { Queryable } from '../kernel/db/database.js';

/**
 * One server process at a time makes the demo month (migration 27): several processes behind a load
 * balancer share one database, and each would otherwise go on with the same half-made month. A claim
 * lasts CLAIM_SECONDS unless renewed; the process making the month renews it while it works, so a
 * claim that runs out belongs to a process that died, and another may take the month over.
 */
export const CLAIM_SECONDS = 60;

/** Takes the month for `runner`, or renews its claim: false while another's claim lasts, or once the month is finished. */
export async function claimMonth(db: Queryable, runner: string, seconds = CLAIM_SECONDS): Promise<boolean> {
  const taken = await db.query(
    `update demo_month set runner = $1, runner_until = now() + make_interval(secs => $2)
      where finished_at is null and (runner is null or runner = $1 or runner_until < now()) returning 1`,
    [runner, seconds],
  );
  return taken.length > 0;
}

/** Gives the month up (stopped, failed or finished): another process may go on with it at once. */
export async function releaseMonth(db: Queryable, runner: string): Promise<void> {
  await db.query(`update demo_month set runner = null, runner_until = null where runner = $1`, [runner]);
}

export interface Hold {
  /** Aborted when the caller stops the run, or when the claim was lost (another process took the month over). */
  signal: AbortSignal;
  release(): Promise<void>;
}

/**
 * Holds the month for one run: claimed now and renewed every third of its span. Undefined when another
 * process holds it. A renewal that finds the claim gone (this process stalled past its span and
 * another took over) stops this run after its step in progress, so the month is never made twice.
 */
export async function holdMonth(db: Queryable, stop?: AbortSignal): Promise<Hold | undefined> {
  const runner = randomUUID();
  if (!(await claimMonth(db, runner))) return undefined;
  const lost = new AbortController();
  const renew = setInterval(
    () => {
      claimMonth(db, runner).then(
        (kept) => kept || lost.abort(new Error('another server process took the demo month over')),
        () => undefined,
      );
    },
    (CLAIM_SECONDS * 1000) / 3,
  );
  renew.unref();
  return {
    signal: stop ? AbortSignal.any([stop, lost.signal]) : lost.signal,
    async release() {
      clearInterval(renew);
      await releaseMonth(db, runner);
    },
  };
}
