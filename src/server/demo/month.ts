import type { FastifyInstance } from 'fastify';
import type { LabClock } from '../kernel/clock.js';
import type { Queryable } from '../kernel/db/database.js';
import { holdMonth } from './claim.js';
import { LabDay } from './lab.js';
import { labRefsOf } from './labSetup.js';
import { dayDate, firstDayOf, planDay, qcRunsOf, type MonthSize } from './plan.js';
import { crewOf } from './staff.js';

/**
 * A stretch of the lab's life (days × specimens a day) made by doing it through the API, the days
 * ending yesterday; how far it got is kept in demo_month (migration 19), so a restarted server goes on
 * with the next day to do. A month already finished is not made again.
 */
export interface MonthRun {
  app: FastifyInstance;
  clock: LabClock;
  db: Queryable;
  /** The demo accounts' password, which the staff the generator takes on get too. */
  password: string;
  size: MonthSize;
  /** Specimens registered so far (of this run and any before it) against the month's total. */
  onProgress?: (done: number, total: number, day: number) => void;
  /** Stops the run after the step in progress (a server shutting down). */
  signal?: AbortSignal;
  /** Resolves when the next call may be made: in the background, once people are answered (peopleFirst.ts). */
  turn?: () => Promise<void>;
  /** Bulk mode (lab.ts): the same work in fewer, larger calls, for a big stretch no one works beside. */
  bulk?: boolean;
}

export interface MonthResult {
  size: MonthSize;
  specimens: number;
  rejected: number;
  results: number;
  refused: number;
  handovers: number;
  tasks: number;
  reasons: string[];
  /** False when the month had been finished before, or another process is making it: nothing was done. */
  ran: boolean;
  /** Another server process is making the month now (demo/claim.ts). */
  elsewhere?: true;
}

interface Progress {
  seed: number;
  days: number;
  perDay: number;
  firstDay: string;
  daysDone: number;
  specimens: number;
  finished: boolean;
}

export async function progressOf(db: Queryable): Promise<Progress | undefined> {
  const [row] = await db.query<Progress>(
    `select seed, days, per_day as "perDay", first_day::text as "firstDay", days_done as "daysDone", specimens,
            finished_at is not null as finished from demo_month`,
  );
  return row;
}

/**
 * The lab's today for a month ending yesterday: before 06:00 still the day before, so that no step of
 * the last day's night (its last rounds end at 04:10, the statements at 05:00) lies ahead of the wall clock.
 */
export function labToday(wall: Date): Date {
  return new Date(wall.getTime() - 6 * 3600_000);
}

const dateText = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const parseDate = (text: string) => {
  const [y, m, d] = text.split('-').map(Number);
  return new Date(y!, m! - 1, d!);
};

/** The month's progress, the month asked for written first when there is none (by one process of several). */
async function begin(run: MonthRun): Promise<Progress> {
  const known = await progressOf(run.db);
  if (known) return known;
  const first = firstDayOf(run.size.days, labToday(run.clock.wallNow()));
  await run.db.query(
    `insert into demo_month (seed, days, per_day, first_day) values ($1, $2, $3, $4::date)
     on conflict (only_row) do nothing`,
    [run.size.seed, run.size.days, run.size.perDay, dateText(first)],
  );
  return (await progressOf(run.db))!;
}

export async function runDemoMonth(run: MonthRun): Promise<MonthResult> {
  const progress = await begin(run);
  const size: MonthSize = { days: progress.days, perDay: progress.perDay, seed: progress.seed };
  const result: MonthResult = {
    size,
    specimens: 0,
    rejected: 0,
    results: 0,
    refused: 0,
    handovers: 0,
    tasks: 0,
    reasons: [],
    ran: !progress.finished,
  };
  if (progress.finished) return result;
  const hold = await holdMonth(run.db, run.signal);
  if (!hold) return { ...result, ran: false, elsewhere: true };
  try {
    // Read again under the claim: a process before this one may have done more days since.
    return await makeDays(run, (await progressOf(run.db))!, result, hold.signal);
  } finally {
    await hold.release();
  }
}

/** The days still to do, then the statements; `signal` stops it after the step in progress. */
async function makeDays(run: MonthRun, progress: Progress, result: MonthResult, signal: AbortSignal) {
  const { size } = result;
  const first = parseDate(progress.firstDay);
  const crew = await crewOf({ app: run.app, turn: run.turn }, run.password);
  const refs = await labRefsOf(crew.admin);
  const qcRuns = qcRunsOf(size, first);
  const total = size.days * size.perDay;
  let done = progress.specimens;
  for (let day = progress.daysDone; day < size.days; day++) {
    const plan = planDay(size, first, day, refs.hospitals.length, qcRuns[day]);
    const lab = new LabDay(run.clock, crew, refs, run.password, {
      onSpecimen: () => run.onProgress?.(++done, total, day + 1),
      signal,
      leaveOpen: day === size.days - 1,
      bulk: run.bulk,
    });
    const tally = await lab.run(plan);
    result.specimens += tally.specimens;
    result.rejected += tally.rejected;
    result.results += tally.results;
    result.refused += tally.refused;
    result.handovers += tally.handovers;
    result.tasks += tally.tasks;
    for (const reason of tally.reasons) if (!result.reasons.includes(reason)) result.reasons.push(reason);
    await run.db.query('update demo_month set days_done = $1, specimens = specimens + $2', [day + 1, tally.specimens]);
  }
  signal.throwIfAborted();
  await statements(run, crew.admin, refs.hospitals, first, size.days);
  await run.db.query('update demo_month set finished_at = now()');
  return result;
}

/** The month closed: each hospital's statement of its charges, made early on the morning after. */
async function statements(
  run: MonthRun,
  admin: Awaited<ReturnType<typeof crewOf>>['admin'],
  hospitals: number[],
  first: Date,
  days: number,
) {
  const period = { periodFrom: dateText(first), periodTo: dateText(dayDate(first, days - 1)) };
  const at = new Date(dayDate(first, days).getTime() + 5 * 3600_000);
  await run.clock.at(at, async () => {
    const owed = await admin.get<{ hospital: number; sampleCount: number }[]>(
      `/api/finance/chargeTotals?from=${period.periodFrom}&to=${period.periodTo}`,
    );
    // A hospital that sent nothing has nothing to settle, and no statement.
    for (const { hospital } of owed.filter((t) => t.sampleCount > 0 && hospitals.includes(t.hospital)))
      await admin.post('/api/resources/reconciliation', { hospital, ...period });
  });
}
