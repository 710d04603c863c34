import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthToMake } from '../../src/server/demo/background';
import { claimMonth, releaseMonth } from '../../src/server/demo/claim';
import { progressOf, runDemoMonth } from '../../src/server/demo/month';
import { DEMO_PASSWORD } from '../support/server';
import { openLab } from '../support/demo-month';

/**
 * Several server processes on one database (PostgreSQL behind a load balancer) are each offered the
 * demo month at their start: one makes it, the others make nothing, and a process that died leaves the
 * month to another once its claim runs out (demo/claim.ts).
 */
let lab: Awaited<ReturnType<typeof openLab>>;
const size = { days: 1, perDay: 3, seed: 5 };
const run = () => runDemoMonth({ app: lab.app, clock: lab.clock, db: lab.db, password: DEMO_PASSWORD, size });
const created = async () =>
  (
    await lab.db.query<{ n: number }>(
      `select count(*)::int as n from record_event where resource = 'specimen' and name = 'create'`,
    )
  )[0]!.n;
const runner = async () =>
  (await lab.db.query<{ runner: string | null }>('select runner from demo_month'))[0]?.runner ?? null;

beforeAll(async () => {
  lab = await openLab();
}, 120_000);
afterAll(() => lab?.dispose());

describe('the demo month with several server processes', () => {
  it('is made by one of two processes offered it at once; the other makes nothing and says another is at it', async () => {
    const results = await Promise.all([run(), run()]);
    const made = results.filter((r) => r.ran);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ specimens: 3 });
    expect(results.filter((r) => r.elsewhere)).toHaveLength(1);
    expect(await created()).toBe(3);
    expect(await progressOf(lab.db)).toMatchObject({ daysDone: 1, specimens: 3, finished: true });
    // Given up once made: nothing holds the month.
    expect(await runner()).toBeNull();
  }, 300_000);

  it('is left alone while another process holds it, and taken over once that claim runs out', async () => {
    // The month again unfinished, held by a process that is at it now.
    await lab.db.query('update demo_month set finished_at = null, days_done = 0');
    expect(await claimMonth(lab.db, 'other process')).toBe(true);
    const beside = await run();
    expect(beside).toMatchObject({ ran: false, elsewhere: true, specimens: 0 });
    expect(await created()).toBe(3);
    expect(await claimMonth(lab.db, 'third process')).toBe(false);
    // That process died: its claim is not renewed and runs out.
    await lab.db.query(`update demo_month set runner_until = now() - interval '1 second'`);
    expect(await claimMonth(lab.db, 'third process')).toBe(true);
    expect(await claimMonth(lab.db, 'other process')).toBe(false);
    await releaseMonth(lab.db, 'third process');
    expect(await runner()).toBeNull();
    // A finished month is claimed by nobody.
    await lab.db.query('update demo_month set finished_at = now(), days_done = 1');
    expect(await claimMonth(lab.db, 'other process')).toBe(false);
  });

  it('is given up at the start of the one process an embedded database has; on PostgreSQL another may hold it', async () => {
    await lab.db.query('update demo_month set finished_at = null, days_done = 0');
    expect(await claimMonth(lab.db, 'a process that died')).toBe(true);
    expect(await monthToMake(lab.db)).toBe(true);
    expect(await runner()).toBe(lab.db.kind === 'pglite' ? null : 'a process that died');
  });
});
