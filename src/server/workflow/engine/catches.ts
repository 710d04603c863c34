import type { Queryable } from '../../kernel/db/database.js';
import type { Wait } from './runner.js';

/**
 * What an instance waits on besides people (workflow_catch, migration 18): timers with their due time,
 * messages and signals by name. Written in the step's transaction, from the engine's own waits, so the
 * rows always say what the saved state waits on: a restart reads them, the poller fires due timers.
 */
export interface CatchRow {
  instanceId: string;
  executionId: string;
  orgId: number;
  elementId: string;
  kind: 'timer' | 'message' | 'signal';
  name: string | null;
  ref: string | null;
  fireExecutionId: string | null;
  dueAt: string | null;
}

const columns = (c: string) =>
  `${c}instance_id as "instanceId", ${c}execution_id as "executionId", ${c}org_id as "orgId", ${c}element_id as "elementId",
   ${c}kind, ${c}name, ${c}ref, ${c}fire_execution_id as "fireExecutionId", ${c}due_at as "dueAt"`;
const CATCH = columns('');

export const catchesOf = (db: Queryable, instanceId: string) =>
  db.query<CatchRow>(`select ${CATCH} from workflow_catch where instance_id = $1 order by created_at, execution_id`, [
    instanceId,
  ]);

/** Brings the instance's catch rows in line with the waits after a step: gone ones removed, new or moved ones written. */
export async function reconcileCatches(tx: Queryable, instanceId: string, orgId: number, waits: Wait[]) {
  const catches = waits.filter((w) => w.catch);
  await tx.query('delete from workflow_catch where instance_id = $1 and not (execution_id = any($2::text[]))', [
    instanceId,
    catches.map((w) => w.executionId),
  ]);
  if (catches.length === 0) return;
  await tx.query(
    `insert into workflow_catch (instance_id, execution_id, org_id, element_id, kind, name, ref, fire_execution_id, due_at)
     select $1, e, $2, el, k, n, r, f, d::timestamptz
       from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) as c(e, el, k, n, r, f, d)
     on conflict (instance_id, execution_id) where instance_id is not null do update
       set due_at = excluded.due_at, fire_execution_id = excluded.fire_execution_id, name = excluded.name, ref = excluded.ref`,
    [
      instanceId,
      orgId,
      catches.map((w) => w.executionId),
      catches.map((w) => w.elementId),
      catches.map((w) => w.catch!.kind),
      catches.map((w) => w.catch!.name ?? null),
      catches.map((w) => w.catch!.ref ?? null),
      catches.map((w) => w.catch!.fireExecutionId ?? null),
      catches.map((w) => w.catch!.due ?? null),
    ],
  );
}

/** Whether the rows say exactly what the engine waits on (the recovery at start steps an instance otherwise). */
export async function catchesInLine(db: Queryable, instanceId: string, waits: Wait[]): Promise<boolean> {
  const rows = await catchesOf(db, instanceId);
  const expected = waits.filter((w) => w.catch);
  return rows.length === expected.length && expected.every((w) => rows.some((r) => r.executionId === w.executionId));
}

/** Timers due now of running instances, oldest first: the poller's page. */
export const dueTimers = (db: Queryable, limit: number) =>
  db.query<CatchRow>(
    `select ${columns('c.')} from workflow_catch c join process_instance i on i.id = c.instance_id
      where c.kind = 'timer' and c.due_at <= now() and i.status = 'running' order by c.due_at limit $1`,
    [limit],
  );

/** The catch row again under the instance's lock: gone or moved when another process fired it first. */
export const stillDue = (tx: Queryable, instanceId: string, executionId: string) =>
  tx.query<CatchRow>(
    `select ${CATCH} from workflow_catch where instance_id = $1 and execution_id = $2 and kind = 'timer' and due_at <= now()`,
    [instanceId, executionId],
  );

/** Whether an instance has a timer due now: the poller's to fire (with its history row), not recovery's. */
export async function hasDueTimer(db: Queryable, instanceId: string): Promise<boolean> {
  const rows = await db.query(
    `select 1 from workflow_catch where instance_id = $1 and kind = 'timer' and due_at <= now() limit 1`,
    [instanceId],
  );
  return rows.length > 0;
}

/** Instances of an organisation waiting for a message or signal of that name (or id in the model). */
export const waitingFor = (
  db: Queryable,
  orgId: number,
  kind: 'message' | 'signal',
  name: string,
  filter: { instanceId?: string | null; businessKey?: string | null },
) =>
  db.query<CatchRow>(
    `select ${columns('c.')} from workflow_catch c join process_instance i on i.id = c.instance_id
      where c.org_id = $1 and c.kind = $2 and (c.name = $3 or c.ref = $3) and i.status = 'running'
        and ($4::text is null or i.id = $4) and ($5::text is null or i.business_key = $5)
      order by c.created_at`,
    [orgId, kind, name, filter.instanceId ?? null, filter.businessKey ?? null],
  );
