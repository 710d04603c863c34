import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/server/kernel/audit/chain';
import { LabClock } from '../../src/server/kernel/clock';
import type { Database } from '../../src/server/kernel/db/database';
import { progressOf, runDemoMonth, type MonthResult } from '../../src/server/demo/month';
import { callTimes } from '../../src/server/demo/api';
import { DEMO_PASSWORD } from '../support/server';
import { makeMonth, type MadeMonth } from '../support/demo-month';

/**
 * Two days of the demo month (issue 19) made through the API, then checked as an inspector would: every
 * specimen's history follows its lifecycle in time order, every reported specimen has its signed report,
 * each statement is the sum of its hospital's charges, and the operation log's chain holds.
 */
type Row = Record<string, unknown>;
type Transition = { name: string; from: string[]; to: string };

const size = { days: 2, perDay: 14, seed: 11 };
/** What each way of making the two days did, and the calls it took, to compare them. */
const made = new Map<boolean, MonthResult>();
const calls = new Map<boolean, number>();
const callsSoFar = () => [...callTimes.values()].reduce((n, t) => n + t.calls, 0);

describe.each([
  { way: 'one by one, as people work', bulk: false },
  { way: 'in bulk mode', bulk: true },
])('two days of the lab, made through the API $way', ({ bulk }) => {
  let month: MadeMonth;
  let db: Database;
  let app: FastifyInstance;
  let result: MonthResult;

  beforeAll(async () => {
    const before = callsSoFar();
    month = await makeMonth(size, bulk);
    ({ db, app, result } = month);
    made.set(bulk, result);
    calls.set(bulk, callsSoFar() - before);
  }, 600_000);

  afterAll(async () => {
    await month?.dispose();
  });

  const specimenEvents = () =>
    db.query<{ recordId: number; name: string; fromState: string | null; toState: string | null; at: Date }>(
      `select record_id::int as "recordId", name, from_state as "fromState", to_state as "toState", at from record_event
        where resource = 'specimen' and kind = 'transition' order by record_id, at, id`,
    );

  it('did the two days, every specimen, and keeps its progress', async () => {
    expect(result).toMatchObject({ ran: true, specimens: 28, refused: 0 });
    expect(result.results).toBeGreaterThan(28);
    expect(await progressOf(db)).toMatchObject({ days: 2, perDay: 14, daysDone: 2, specimens: 28, finished: true });
    // Run again, it finds the month made and makes nothing more.
    const again = await runDemoMonth({ app, clock: new LabClock(() => new Date()), db, password: DEMO_PASSWORD, size });
    expect(again.ran).toBe(false);
    expect((await specimenEvents()).filter((e) => e.name === 'create')).toHaveLength(28);
    // Each tube's label printed, in its history.
    const printed = await db.query(
      `select distinct record_id from record_event where resource = 'specimen' and kind = 'print'`,
    );
    expect(printed).toHaveLength(28);
  });

  it('gives every specimen a history that follows its lifecycle, in time order, on days past', async () => {
    const screen = JSON.parse(readFileSync('schemas/screens/front-entry.json', 'utf8')) as {
      resource: { lifecycle: { transitions: Transition[] } };
    };
    const steps = new Map(screen.resource.lifecycle.transitions.map((t) => [t.name, t]));
    const bySpecimen = new Map<number, Awaited<ReturnType<typeof specimenEvents>>>();
    for (const e of await specimenEvents()) bySpecimen.set(e.recordId, [...(bySpecimen.get(e.recordId) ?? []), e]);
    expect(bySpecimen.size).toBe(28);
    for (const [id, events] of bySpecimen) {
      expect(events[0]!.name, `specimen ${id}`).toBe('create');
      for (let i = 1; i < events.length; i++) {
        const [before, e] = [events[i - 1]!, events[i]!];
        const step = steps.get(e.name);
        expect(step, `specimen ${id}: ${e.name} is a step of its lifecycle`).toBeDefined();
        expect(step!.from, `specimen ${id}: ${e.name} from ${e.fromState}`).toContain(e.fromState);
        expect(e.fromState, `specimen ${id}: ${e.name} starts where ${before.name} ended`).toBe(before.toState);
        expect(e.at.getTime()).toBeGreaterThanOrEqual(before.at.getTime());
      }
      // Done on the lab's days, at their times, never in the future.
      for (const e of events) expect(e.at.getTime()).toBeLessThanOrEqual(Date.now());
      const names = events.map((e) => e.name);
      // Received at the desk, or sent in a courier's box and received with it.
      const arrival = names.includes('reject')
        ? ['reject']
        : names.includes('send')
          ? ['send', 'receive']
          : ['receive'];
      expect(names.slice(0, 2 + arrival.length)).toEqual(['create', 'collect', ...arrival]);
    }
    const created = [...bySpecimen.values()].map((events) => events[0]!.at);
    expect(created.filter((at) => at.getHours() >= 7 && at.getHours() < 12).length).toBeGreaterThan(14);
  });

  it('reports every specimen whose results are all audited, each with a signed, published report', async () => {
    const specimens = await db.query<Row>(
      `select id, data->>'barcode' as barcode, data->>'status' as status from resource_record where resource = 'specimen'
          and id in (select record_id from record_event where resource = 'specimen' and name = 'create')`,
    );
    const reported = specimens.filter((s) => s.status === 'reported');
    // Rejected specimens are never reported; every other one got through the two days.
    expect(reported.length).toBe(specimens.filter((s) => s.status !== 'rejected').length);
    expect(reported.length).toBeGreaterThan(20);
    for (const s of reported) {
      const reports = await db.query<Row>(
        `select id, data->>'status' as status from resource_record where resource = 'reportRecord' and data->>'barcode' = $1`,
        [s.barcode],
      );
      expect(
        reports.some((r) => r.status === 'published'),
        `report of ${String(s.barcode)}`,
      ).toBe(true);
      const signed = await db.query<Row>(
        `select e.name, e.actor_name as actor, e.details->'signature'->>'signer' as signer from record_event e
             join resource_record r on r.id = e.record_id and r.resource = 'inspectionResult'
            where e.resource = 'inspectionResult' and e.name in ('firstReview', 'audit') and r.data->>'barcode' = $1`,
        [s.barcode],
      );
      const audits = signed.filter((e) => e.name === 'audit');
      expect(audits.length, `audits of ${String(s.barcode)}`).toBeGreaterThan(0);
      expect(audits.every((e) => e.signer === e.actor)).toBe(true);
    }
    // Reviews by different staff: two reviewers and two auditors took turns.
    const people = await db.query<{ name: string; n: number }>(
      `select name, count(distinct actor_id)::int as n from record_event where resource = 'inspectionResult'
          and name in ('firstReview', 'audit') group by name`,
    );
    expect(Object.fromEntries(people.map((p) => [p.name, p.n]))).toEqual({ firstReview: 2, audit: 2 });
  });

  it('closes the stretch with statements equal to the hospitals charges', async () => {
    const statements = await db.query<{ id: number; payable: string; cents: string; lines: number }>(
      `select r.id, r.data->>'payableAmount' as payable, sum(c.payable_cents)::text as cents, count(c.id)::int as lines
           from resource_record r join charge_line c on c.statement_id = r.id
          where r.resource = 'reconciliation' group by r.id, r.data`,
    );
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) expect(Math.round(Number(s.payable) * 100), `statement ${s.id}`).toBe(Number(s.cents));
    // Every charge of the two days is on a statement.
    const loose = await db.query(
      `select 1 from charge_line c where statement_id is null and exists (select 1 from record_event e
           join resource_record r on r.id = e.record_id where e.resource = 'specimen' and e.name = 'create'
            and r.data->>'barcode' = c.barcode)`,
    );
    expect(loose).toHaveLength(0);
  });

  it('brings the courier boxes in by handover, each confirmed at its group with the specimens it carried', async () => {
    expect(result.handovers).toBeGreaterThan(0);
    const boxes = await db.query<Row>(
      `select id, data->>'handoverNo' as no, data->>'status' as status, data->>'receivedByAccount' as receiver,
                (data->>'receivedAt') as "receivedAt", (data->>'specimenCount')::int as count
           from resource_record r where resource = 'handoverRecord' and org_id = 1
            and exists (select 1 from record_event e where e.resource = 'specimen' and e.name = 'send'
                          and e.details->>'handoverNo' = r.data->>'handoverNo')`,
    );
    // The generator's boxes (the demo data has handovers of its own): as many as it confirmed.
    expect(boxes).toHaveLength(result.handovers);
    for (const box of boxes) {
      expect(box, `handover ${String(box.no)}`).toMatchObject({ status: 'received', receiver: 'hejing' });
      const lines = await db.query<Row>(
        `select data->>'barcode' as barcode, data->>'checkResult' as check from resource_record
            where resource = 'handoverItem' and (data->>'handover')::int = $1`,
        [box.id],
      );
      expect(lines.length, `lines of ${String(box.no)}`).toBe(box.count);
      for (const line of lines) {
        // Each tube is a specimen of the lab, sent and received under this handover's number, in that order.
        const moves = await db.query<Row>(
          `select e.name, e.at from record_event e join resource_record s on s.id = e.record_id and s.resource = 'specimen'
              where e.resource = 'specimen' and s.org_id = 1 and s.data->>'barcode' = $1 and e.details->>'handoverNo' = $2
              order by e.at, e.id`,
          [line.barcode, box.no],
        );
        expect(
          moves.map((m) => m.name),
          `${String(line.barcode)} on ${String(box.no)}`,
        ).toEqual(['send', 'receive']);
        expect(line.check).not.toBe('pending');
      }
    }
  });

  it('works the general inspection tasks from the work list, each by staff holding its group', async () => {
    expect(result.tasks).toBeGreaterThan(28);
    const done = await db.query<{ id: string; name: string; groups: string[]; held: boolean; variables: Row | null }>(
      `select t.id, t.name, t.candidate_groups as groups, t.variables,
                exists (select 1 from user_role ur join role r on r.id = ur.role_id where ur.user_id = t.completed_by
                          and (r.id::text = any(t.candidate_groups) or r.code = any(t.candidate_groups) or r.name = any(t.candidate_groups))) as held
           from workflow_task t where t.org_id = 1 and t.status = 'complete'`,
    );
    expect(done.length).toBe(result.tasks);
    for (const task of done) expect(task.held, `${task.name} ${task.id}`).toBe(true);
    // Each form filled as its page asks: the tester names the analyser.
    const tested = done.filter((t) => t.name === '上机检验');
    expect(tested.length).toBeGreaterThan(0);
    for (const task of tested) expect(task.variables?.instrumentName).toBeTruthy();
    // Most processes run to their end; the last day leaves some audits on the work list.
    const instances = await db.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from process_instance where org_id = 1 and process_key = 'general_inspection' group by status`,
    );
    const byStatus = Object.fromEntries(instances.map((i) => [i.status, i.n]));
    expect(byStatus.completed).toBeGreaterThan(byStatus.running ?? 0);
    const open = await db.query<{ name: string }>(
      `select name from workflow_task where org_id = 1 and status = 'active' and name = '审核'`,
    );
    expect(open.length).toBeGreaterThan(0);
  });

  it('leaves an operation log whose chain verifies', async () => {
    const report = await verifyChain(db);
    expect(report.broken).toBeUndefined();
    expect(report.entries).toBeGreaterThan(100);
  });
});

describe('bulk mode', () => {
  it('does the same work as one by one: the same specimens, results, handovers and tasks, in fewer calls', () => {
    const [oneByOne, bulk] = [made.get(false)!, made.get(true)!];
    const work = ({ specimens, rejected, results, refused, handovers, tasks }: MonthResult) => ({
      specimens,
      rejected,
      results,
      refused,
      handovers,
      tasks,
    });
    expect(work(bulk)).toEqual(work(oneByOne));
    expect(calls.get(true)).toBeLessThan(calls.get(false)!);
    // Tasks completed together, tubes collected and received at the desk several at a time.
    for (const batch of ['POST /api/workflow/task/batchComplete', 'POST /api/resources/specimen/transitions/collect'])
      expect(callTimes.get(batch)?.calls, batch).toBeGreaterThan(0);
  });
});
